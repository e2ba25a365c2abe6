// The start-up script of every page: Trunk writes it inline, as `pattern_script` in Trunk.toml,
// with `{base}` (the public URL), `{js}` (the app's script) and `{wasm}` (its wasm) filled in.
// That value is this file on one line: each line trimmed and joined to the next, blank lines and
// comments left out (`cargo xtask` checks it, xtask/src/start_script.rs, and gives the line to
// paste). So a comment here has a line of its own, no line ends in a word that the next line's
// first word would run into, and no `'` is used (the TOML string could not hold it).
//
// Every page arrives whole in its HTML, so nothing of the app is fetched before the page's first
// paint: the script waits for it, then applies the stylesheets held back, starts the
// catalogue's early search, has the fetch worker download the registry and compile the wasm,
// and imports the app.

// Wait for the first paint: its `first-contentful-paint` entry, or a frame where paint timing is
// unknown.
await new Promise((painted) => {
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) return requestAnimationFrame(() => setTimeout(painted));
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length) {
      observer.disconnect();
      painted();
    }
  }).observe({ type: "paint", buffered: true });
});

// Apply the stylesheets fetched without holding the paint up (`icons.css`, `<link
// data-after-paint>`: see `Template::with_late_stylesheet` in src/render.rs).
for (const sheet of document.querySelectorAll("link[data-after-paint]")) sheet.media = "all";

// On the catalogue, the early search (src/early-search.js) answers what is typed before the
// app is live: its script, its wasm and its cards download side by side, first and alone
// (fetched before the first paint, they took the stylesheet's bandwidth and put the paint off;
// in the page, the cards did the same). The app
// downloads once the early search answers. A page without it, or where it fails, goes on at
// once.
if (document.getElementById("acp-early")) {
  try {
    const wasm = fetch("{base}acp-early_bg.wasm").catch(() => null);
    const cards = fetch("{base}early-cards.json").catch(() => null);
    await (await import("{base}early-search.js")).start(wasm, cards);
  } catch {}
}

// Have the fetch worker (src/fetch-worker.js, left in `window.acpFetchWorker` for the app)
// download the registry the page names (`<meta name="acp-fetch">`; see `DataPreloads` in
// src/app.rs). Nothing optional is fetched before the app answers (src/registry/mod.rs). A
// worker that cannot start, or fails to load, is forgotten: the app then fetches the registry
// itself.
const fetched = document.querySelector("meta[name=acp-fetch]");
if (fetched) {
  try {
    const worker = new Worker("{base}fetch-worker.js");
    worker.addEventListener("error", () => {
      if (window.acpFetchWorker === worker) window.acpFetchWorker = undefined;
    });
    worker.postMessage({ early: new URL(fetched.content, document.baseURI).href });
    window.acpFetchWorker = worker;
  } catch {}
}

// The wasm downloads beside the app's script, compiled by the fetch worker off the page's
// thread; without a worker, or when it answers `null` or fails, the page compiles it itself.
const worker = window.acpFetchWorker;
const compiled = worker ? new Promise((done) => {
  const answered = ({ data }) => {
    if (data && "compiled" in data) {
      worker.removeEventListener("message", answered);
      done(data.compiled);
    }
  };
  worker.addEventListener("message", answered);
  worker.addEventListener("error", () => done(null));
  worker.postMessage({ compile: new URL("{base}{wasm}", document.baseURI).href });
}) : null;

// Import the app and start it. If it cannot start (its script or wasm fails to load or to run),
// show the page's `[data-app-failed]` notices (`ScriptNeeded` in src/components/notices.rs),
// which say what does not work and what still does.
try {
  const { default: init } = await import("{base}{js}");
  await init({ module_or_path: (await compiled) ?? "{base}{wasm}" });
} catch (error) {
  for (const notice of document.querySelectorAll("[data-app-failed]")) notice.hidden = false;
  throw error;
}
