// The catalogue's early search: answers a search typed before the app is live.
//
// The app's wasm takes seconds to arrive on a phone's link, and the catalogue looks ready long
// before: its HTML holds the page. So the build also writes, for the catalogue's inert
// `<template id="acp-early">` (`EarlyCards` in src/routes/catalogue.rs), every entry's card as
// the site's components render it, a `<mark>`, the empty state, and the fields the search reads
// of each entry: in `early-cards.json` beside the page (`render::EARLY_CARDS`), so that they do
// not put its first paint off. Once the page is painted, the start-up script (src/start.js)
// imports this module and fetches them and the small wasm of the core's search
// (`crates/early-search`, `acp-early`) side by side, and waits for `start` before it fetches the
// app: they download first and alone.
//
// Each text typed into the search box is then answered here: the wasm ranks the entries and
// says which characters to mark, and this shows the template's cards in that order, marked,
// with the results' count, as the live app will (the core's own ranking, marks and count, and
// the components' own markup: no rule and no markup of the page is written here). The filters
// say they are busy (`aria-busy`): their counts are the whole registry's until the app is live. Once
// the app takes the page over (its root is replaced), this stops; the app starts from the text
// typed, with the focus and the caret where they were (src/boot.rs).
//
// It answers only a search: on a page whose address holds filters or a sort, or once a filter
// or the sort is changed, it leaves the page to the app.

/** The template the build wrote, when it did. */
const template = document.getElementById("acp-early");

/**
 * Starts the early search with the responses for its wasm and its cards (`null` where one
 * failed); resolves once it answers, or has given up: the start-up script then loads the app.
 */
export function start(wasm, cards) {
  if (!template) return Promise.resolve();
  return answering(wasm, cards).catch((error) => {
    console.warn("The early search is off:", error);
  });
}

async function answering(wasm, cards) {
  const root = document.getElementById("app");
  const input = document.getElementById("search");
  const results = root?.querySelector("[data-results]");
  const section = root?.querySelector("section[aria-label=Results]");
  const count = section?.querySelector("[role=status]");
  const list = results?.querySelector("ul");
  if (!input || !results || !count || !list) throw new Error("the page has no results to answer in");
  const address = new URLSearchParams(location.search);
  if ([...address.keys()].some((key) => key !== "q")) return;

  const written = await cards;
  if (!written?.ok) throw new Error(`the early search's cards did not load (${written?.status ?? "no answer"})`);
  // The build's own markup (the site's components, registry text escaped), parsed inert.
  template.innerHTML = await written.json();
  const copy = template.content;
  const copies = [...copy.querySelector("[data-early=cards]").children];
  const mark = copy.querySelector("[data-early=mark] mark");
  const empty = copy.querySelector("[data-early=empty]").firstElementChild;
  const { anyExtension, fields } = JSON.parse(copy.querySelector("[data-early=fields]").textContent);
  const limit = list.children.length;
  const more = root.querySelector("[data-remaining]");
  const filters = root.querySelector("aside[aria-label=Filters]");

  const search = await load(new URL("acp-early.js", document.baseURI).href, wasm);
  const early = new search.EarlySearch(fields, anyExtension);
  if (copies.length * 6 !== fields.length) throw new Error("the page's cards and fields disagree");

  // What the page shows already: nothing to answer until something else is asked.
  let shown = input.defaultValue;
  const stop = () => {
    input.removeEventListener("input", answer);
    root.removeEventListener("change", leave, true);
  };
  function answer() {
    if (!root.isConnected) return stop();
    const q = input.value;
    if (q === shown) return;
    shown = q;
    early.search(q, limit);
    const total = early.total();
    count.textContent = early.count();
    const order = early.results();
    const items = [...order].map((entry, at) => {
      const card = copies[entry].cloneNode(true);
      card.querySelectorAll("[data-marks]").forEach((span, text) => markText(span, early.marks(at, text)));
      return card;
    });
    list.replaceChildren(...items);
    if (more) {
      more.textContent = String(Math.max(0, total - limit));
      more.closest("button").hidden = total <= limit;
    }
    results.hidden = total === 0;
    empty.remove();
    if (total === 0) {
      empty.querySelector("[data-words]").textContent = q.trim();
      results.after(empty);
    }
    // The filters' counts are the whole registry's until the app is live.
    if (q.trim()) filters?.setAttribute("aria-busy", "true");
    else filters?.removeAttribute("aria-busy");
  }
  function markText(span, marks) {
    const text = span.textContent;
    const pieces = [];
    let at = 0;
    for (let i = 0; i + 1 < marks.length; i += 2) {
      const [start, end] = [marks[i], marks[i + 1]];
      if (start > at) pieces.push(text.slice(at, start));
      const marked = mark.cloneNode(false);
      marked.textContent = text.slice(start, end);
      pieces.push(marked);
      at = end;
    }
    if (at < text.length || !pieces.length) pieces.push(text.slice(at));
    span.replaceChildren(...pieces);
  }
  // A filter ticked or the order changed: the app, once live, shows what they ask for.
  function leave(event) {
    if (event.target !== input) stop();
  }
  // "Clear search and filters" in the empty state: the search is all there is to clear.
  empty.querySelector("button")?.addEventListener("click", () => {
    input.value = "";
    answer();
  });
  // An address with a search: the box shows it, as the app's will, unless something was typed.
  const asked = address.get("q");
  if (asked !== null && input.value === input.defaultValue) input.value = asked;
  input.addEventListener("input", answer);
  root.addEventListener("change", leave, true);
  answer();
}

/** The early search's wasm, compiled from its `response`, through its `wasm-bindgen` script (a classic script defining `wasm_bindgen`), fetched side by side. */
async function load(script, response) {
  const module = (async () => {
    const wasm = await response;
    if (!wasm?.ok) throw new Error(`the early search's wasm did not load (${wasm?.status ?? "no answer"})`);
    if (wasm.headers.get("content-type")?.startsWith("application/wasm")) return WebAssembly.compileStreaming(wasm);
    return WebAssembly.compile(await wasm.arrayBuffer());
  })();
  await new Promise((loaded, failed) => {
    const element = document.createElement("script");
    element.src = script;
    element.onload = loaded;
    element.onerror = () => failed(new Error(`${script} did not load`));
    document.head.append(element);
  });
  // eslint-disable-next-line no-undef
  const bindgen = wasm_bindgen;
  await bindgen({ module_or_path: await module });
  return bindgen;
}
