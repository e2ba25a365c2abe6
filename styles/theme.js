// Inlined into the <head> of every page by Trunk: applies the remembered or system theme before
// the first paint, so nothing flashes. `src/components/theme.rs` takes over once the app runs.
// Also marks the page as having JavaScript (`js`), which hides what only a page without it says
// (`ScriptNeeded` in src/components/notices.rs).
(function () {
  var t = null;
  try { t = localStorage.getItem("acp-theme"); } catch (e) {}
  var dark = t === "dark" || (t !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.classList.toggle("light", !dark);
  document.documentElement.classList.add("js");
})();
