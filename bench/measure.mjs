// Measures the catalogue in headless Chromium: `node bench/measure.mjs <config.json>`.
//
// `cargo xtask bench` serves, per registry size, a copy of the release site with that size's
// registry.json, the plainest honest catalogue (plain.html, the reference), the facet-counting
// plain-JS page (baseline.html) and an idle page (idle.html), and writes the config:
// `{sizes: [{label, entries, url}], loads, rounds, keyDelay, settleMs, chromium, out}`. This script
// writes raw samples to `out`; the xtask turns them into medians, percentiles and ratios.
//
// Per size, after one untimed load of the site (so the server has compressed what it serves, as
// a host's cache would have):
//
// - First results painted: `loads` fresh page loads (each in a new browser profile, so nothing
//   is cached) of the site, the plain page and the baseline, interleaved. An init script watches
//   the DOM with a MutationObserver; once a result card (`section[aria-label=Results] li h2`)
//   exists it asks for an animation frame and records `performance.now()` there, which counts
//   from navigation start. The site's page arrives with its first page of results in the HTML
//   (rendered at build time from the same registry), so its first results are its first paint;
//   everything else waits until the app has taken the page over (`whenLive`).
// - Parse and index: the `acp:parse` and `acp:parse+index` User Timing measures each page
//   records (the JS pages record the same names); on the site, also the median of five
//   `JSON.parse` runs of the same registry.json text (fetched again, after one warm-up parse) in
//   the same page, taken last.
// - Long tasks after the first results: a `PerformanceObserver` for `longtask`, registered
//   before any page script, records every task over 50 ms; those that start after the first
//   results were painted, until `settleMs` after the page is live, are kept.
// - Memory, `settleMs` after the first results: the JS heap in use after a garbage collection
//   (CDP `HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`), and the wasm memory: an
//   init script wraps `WebAssembly.instantiate` and `instantiateStreaming` and keeps every
//   instance's exported `memory`, whose `buffer.byteLength` is read then.
// - Keystroke to next frame: the test queries are typed one key at a time, `keyDelay` ms apart,
//   into the box named "Search agents" of the site, the plain page, the baseline and the idle
//   page, interleaved, `rounds` times each, every query on a freshly loaded page. A capture-phase
//   `input` listener on `window` (added before any page script) takes the event's `timeStamp`
//   and requests an animation frame; every page handles `input` synchronously during the
//   event's dispatch (the site in its delegated listener, the JS pages on the input itself), so
//   that frame is the first one that can show their work. The rAF callback's time is "next
//   frame"; a task posted from it runs once the frame's style, layout and paint are done: "frame
//   done". To verify the order, the rAF callback also records a fingerprint of what the page
//   shows (count, first ten cards, marks); if the page shows something else on screen once it
//   has settled (the count, or a card down to the bottom of the screen), the sample is flagged
//   `stale` (the app was not done by that frame).
// - Self-check: for a few queries, the site and the baseline are loaded with `?q=` and their top
//   ten ids, count text and facet counts compared; the plain page's count is compared with a
//   scan of the same registry here, by the same rule. Differences are reported so the
//   comparison stays honest.
import { readFileSync, writeFileSync } from 'node:fs';
import { freshBrowser } from './fresh-browser.mjs';

const VIEWPORT = { width: 1280, height: 900 };
const RESULT_CARD = 'section[aria-label=Results] li h2';
/** Typed on every page: a name, a typo (typo fallback), and a query many entries match. */
const QUERIES = ['claude code', 'gemni', 'ai coding agent'];
/** Compared between the site and the baseline. */
const CHECK_QUERIES = ['', 'claude code', 'gemni', 'agent', 'rust cli', 'pyhton', 'local models', 'opnecode'];
/** The facet groups the baseline implements (the site may show more). */
const COMPARED_FACETS = ['Kind', 'Distribution', 'Operating system', 'Architecture', 'License'];
const TIMEOUT = 120_000;

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** The pages loaded and typed into, by the name the xtask reads them under. */
const PAGES = { site: '', plain: 'plain.html', baseline: 'baseline.html' };

/**
 * Runs in the page before its scripts: records when the first result card is on screen, every
 * long task, and the memory of every wasm instance.
 */
function probeLoad(selector) {
  const observer = new MutationObserver(() => {
    if (document.querySelector(selector)) {
      observer.disconnect();
      requestAnimationFrame(() => {
        window.__benchFirstResults = performance.now();
      });
    }
  });
  observer.observe(document, { childList: true, subtree: true });

  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) {
      window.__benchLongTasks.push({ start: task.startTime, duration: task.duration });
    }
  }).observe({ type: 'longtask' });

  // wasm-bindgen's glue instantiates with one of these and the module exports its `memory`.
  window.__benchWasmMemories = [];
  const keep = (result) => {
    const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
    const memory = instance?.exports?.memory;
    if (memory instanceof WebAssembly.Memory) window.__benchWasmMemories.push(memory);
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    if (typeof original !== 'function') continue;
    WebAssembly[name] = function (...args) {
      return original.apply(this, args).then(keep);
    };
  }
}

/** Runs in the page before its scripts: records every keystroke's next frame. */
function probeKeystrokes() {
  const samples = [];
  window.__benchKeystrokes = samples;
  window.__benchFingerprint = () => {
    const results = document.querySelector('section[aria-label=Results]');
    if (!results) return '';
    // What is shown: a list the site keeps hidden for a frame is not.
    const cards = [...results.querySelectorAll('li h2 a')]
      .filter((a) => a.checkVisibility())
      .slice(0, 10)
      .map((a) => a.innerHTML);
    return JSON.stringify([results.querySelector('[role=status]')?.textContent, cards]);
  };
  // How many of the fingerprint's cards are on screen (read once the page has settled).
  window.__benchOnScreen = () =>
    [...document.querySelectorAll('section[aria-label=Results] li h2 a')]
      .filter((a) => a.checkVisibility())
      .slice(0, 10)
      .filter((a) => a.closest('li').getBoundingClientRect().top < window.innerHeight).length;
  window.addEventListener(
    'input',
    (event) => {
      const start = event.timeStamp;
      const value = event.target?.value ?? '';
      requestAnimationFrame(() => {
        const raf = performance.now();
        const atFrame = window.__benchFingerprint();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          samples.push({ value, start, raf, done: performance.now(), atFrame });
        };
        channel.port2.postMessage(null);
      });
    },
    true,
  );
}

/**
 * What a catalogue page shows: top ten ids, the count, the facet options with counts, and the
 * first card's markup (tags, sorted attributes and text; without links and the icon, which
 * depends on when its image loaded).
 */
function readView(compared) {
  const shape = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const attributes = [...node.attributes]
      .filter((a) => a.name !== 'href')
      .map((a) => `${a.name}="${a.value}"`)
      .sort()
      .join(' ');
    return `<${node.localName} ${attributes}>${[...node.childNodes].map(shape).join('')}</${node.localName}>`;
  };
  const results = document.querySelector('section[aria-label=Results]');
  const first = results.querySelector('li');
  const card = first ? [...first.children].slice(1).map(shape).join('') : null;
  const ids = [...results.querySelectorAll('li h2 a')]
    .slice(0, 10)
    .map((a) => a.getAttribute('href').split('/').filter(Boolean).pop());
  const count = results.querySelector('[role=status]')?.textContent.trim();
  const facets = {};
  for (const fieldset of document.querySelectorAll('aside[aria-label=Filters] fieldset')) {
    const legend = fieldset.querySelector('legend')?.textContent.trim();
    if (!compared.includes(legend)) continue;
    facets[legend] = [...fieldset.querySelectorAll('li label')].map((label) =>
      [...label.querySelectorAll('span')].map((s) => s.textContent.trim()).join(' '),
    );
  }
  return { ids, count, facets, card };
}

/** A fresh headless Chromium (bench/fresh-browser.mjs) at the bench's desktop size. */
const launch = () => freshBrowser(config.chromium, { viewport: VIEWPORT });

const log = (...parts) => console.log(...parts);

/**
 * Until the page reacts to input: the site's HTML shows its first page before the app has taken
 * it over (`#app[data-prerendered]` gone); the JS pages have no such root and react at once.
 */
const whenLive = (page) =>
  page.waitForFunction(() => !document.querySelector('#app[data-prerendered]'), null, { timeout: TIMEOUT });
const round1 = (ms) => Math.round(ms * 10) / 10;

/**
 * One fresh load: first results painted, parse and index, long tasks after the first results,
 * memory; with `jsonParse`, the median JSON.parse time of the same registry in the same page.
 */
async function freshLoad(url, jsonParse) {
  const { context, page, close } = await launch();
  try {
    await page.addInitScript(probeLoad, RESULT_CARD);
    await page.goto(url);
    await page.waitForFunction(() => window.__benchFirstResults !== undefined, null, { timeout: TIMEOUT });
    const firstResults = await page.evaluate(() => window.__benchFirstResults);
    await whenLive(page);
    const liveAt = await page.evaluate(() => performance.now());
    await page.waitForTimeout(config.settleMs);
    const seen = await page.evaluate(
      ({ from, until }) => {
        const measure = (name) => performance.getEntriesByName(name, 'measure')[0]?.duration ?? null;
        return {
          parse: measure('acp:parse'),
          parseIndex: measure('acp:parse+index'),
          longTasks: window.__benchLongTasks.filter((t) => t.start >= from && t.start <= until),
          wasmMemory: window.__benchWasmMemories.length
            ? window.__benchWasmMemories.reduce((sum, memory) => sum + memory.buffer.byteLength, 0)
            : null,
        };
      },
      { from: firstResults, until: Math.max(firstResults, liveAt) + config.settleMs },
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    await cdp.detach();
    const load = { firstResults, ...seen, jsHeap: heap.usedSize, jsonParse: null };
    if (!jsonParse) return load;
    load.jsonParse = await page.evaluate(async () => {
      const text = await (await fetch('registry.json')).text();
      // One warm-up; the lengths are summed so that no parse can be optimised away.
      let agents = JSON.parse(text).agents.length;
      const runs = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        agents += JSON.parse(text).agents.length;
        runs.push(performance.now() - start);
      }
      runs.sort((a, b) => a - b);
      return agents > 0 ? runs[2] : null;
    });
    return load;
  } finally {
    await close();
  }
}

/**
 * Whether a frame showed what the settled page shows on screen: the same count, and the same
 * cards down to the bottom of the screen (a page may add the cards below it after the frame).
 */
function sameOnScreen(atFrame, settled) {
  if (!atFrame || !settled.shown) return atFrame === settled.shown;
  const [[count, cards], [settledCount, settledCards]] = [JSON.parse(atFrame), JSON.parse(settled.shown)];
  const n = settled.onScreen;
  return count === settledCount && JSON.stringify(cards.slice(0, n)) === JSON.stringify(settledCards.slice(0, n));
}

/** Types `query` on a freshly loaded `url`; returns one sample per keystroke. */
async function typeQuery(page, url, query, hasResults) {
  await page.goto(url);
  if (hasResults) await page.waitForSelector(RESULT_CARD, { timeout: TIMEOUT });
  await whenLive(page);
  const box = page.getByRole('searchbox', { name: 'Search agents' });
  await box.click();
  // Let icons, fonts and the first paints settle before the first key.
  await page.waitForTimeout(500);
  await page.evaluate(() => window.__benchKeystrokes.splice(0));
  const settled = [];
  for (const key of query) {
    await page.keyboard.type(key);
    await page.waitForTimeout(config.keyDelay);
    settled.push(await page.evaluate(() => ({ shown: window.__benchFingerprint(), onScreen: window.__benchOnScreen?.() ?? 0 })));
  }
  await page.waitForTimeout(50);
  const samples = await page.evaluate(() => window.__benchKeystrokes.splice(0));
  if (samples.length !== query.length) {
    log(`  WARNING: ${samples.length} frames for ${query.length} keystrokes of “${query}” on ${url}`);
  }
  return samples.map((s, i) => ({
    query,
    value: s.value,
    start: s.start,
    raf: s.raf,
    done: s.done,
    stale: settled[i] !== undefined && !sameOnScreen(s.atFrame, settled[i]),
  }));
}

async function keystrokes(size) {
  const pages = {
    site: { url: size.url, hasResults: true },
    plain: { url: new URL(PAGES.plain, size.url).href, hasResults: true },
    baseline: { url: new URL(PAGES.baseline, size.url).href, hasResults: true },
    idle: { url: new URL('idle.html', size.url).href, hasResults: false },
  };
  const samples = { site: [], plain: [], baseline: [], idle: [] };
  const { page, close } = await launch();
  try {
    await page.addInitScript(probeKeystrokes);
    for (let round = 0; round < config.rounds; round++) {
      for (const query of QUERIES) {
        for (const [name, target] of Object.entries(pages)) {
          samples[name].push(...(await typeQuery(page, target.url, query, target.hasResults)));
        }
      }
      const p95 = (list) => {
        const sorted = list.map((s) => s.raf - s.start).sort((a, b) => a - b);
        return round1(sorted[Math.max(Math.ceil(sorted.length * 0.95) - 1, 0)] ?? NaN);
      };
      log(
        `  ${size.label}: typing round ${round + 1}/${config.rounds}: p95 so far site ${p95(samples.site)} ms, ` +
          `plain JS ${p95(samples.plain)} ms, facet-counting JS ${p95(samples.baseline)} ms, idle ${p95(samples.idle)} ms`,
      );
    }
  } finally {
    await close();
  }
  return samples;
}

async function selfCheck(size) {
  const { page, close } = await launch();
  const checks = [];
  try {
    for (const query of CHECK_QUERIES) {
      const search = query ? `?q=${encodeURIComponent(query)}` : '';
      const views = {};
      for (const [name, path] of [['site', PAGES.site], ['baseline', PAGES.baseline]]) {
        await page.goto(new URL(path + search, size.url).href);
        await whenLive(page);
        await page.waitForFunction(
          () => document.querySelector('section[aria-label=Results] [role=status]')?.textContent.trim(),
          null,
          { timeout: TIMEOUT },
        );
        await page.waitForTimeout(200);
        views[name] = await page.evaluate(readView, COMPARED_FACETS);
      }
      const differences = [];
      const { site, baseline } = views;
      if (JSON.stringify(site.ids) !== JSON.stringify(baseline.ids)) {
        differences.push(`top 10 site [${site.ids.join(', ')}] vs plain JS [${baseline.ids.join(', ')}]`);
      }
      if (site.count !== baseline.count) {
        differences.push(`count “${site.count}” vs “${baseline.count}”`);
      }
      if (site.card !== baseline.card) {
        differences.push(`first card markup site ${site.card} vs plain JS ${baseline.card}`);
      }
      for (const legend of COMPARED_FACETS) {
        const [a, b] = [site.facets[legend], baseline.facets[legend]];
        if (a === undefined) continue; // The site does not show this group (yet).
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          differences.push(`${legend} facet [${a.join(', ')}] vs [${(b ?? []).join(', ')}]`);
        }
      }
      checks.push({ query, differences });
      if (differences.length) log(`  WARNING: ${size.label} “${query}”: ${differences.join('; ')}`);
    }
  } finally {
    await close();
  }
  return checks;
}

/** The plain page's rule, applied here to the registry text: how many entries match `query`. */
function plainCount(registry, query) {
  const q = query.trim().toLowerCase();
  const entries = [...(registry.agents ?? []), ...(registry.extensions ?? [])];
  return entries.filter((e) =>
    [e.name, e.id, e.description, (e.authors ?? []).join(', ')].some((text) => String(text ?? '').toLowerCase().includes(q)),
  ).length;
}

/** The plain page's count on each check query, against a scan of the registry here. */
async function plainCheck(size) {
  const registry = await (await fetch(new URL('registry.json', size.url))).json();
  const { page, close } = await launch();
  const checks = [];
  try {
    for (const query of CHECK_QUERIES) {
      const search = query ? `?q=${encodeURIComponent(query)}` : '';
      await page.goto(new URL(PAGES.plain + search, size.url).href);
      await page.waitForSelector(`${RESULT_CARD}, section[aria-label=Results] [role=status]:text-matches("No agents")`, {
        timeout: TIMEOUT,
      });
      const shown = await page.locator('section[aria-label=Results] [role=status]').textContent();
      const expected = plainCount(registry, query);
      const count = Number.parseInt(shown, 10);
      const differences = (Number.isNaN(count) ? 0 : count) === expected ? [] : [`count “${shown}” vs ${expected} by a scan here`];
      checks.push({ query, differences });
      if (differences.length) log(`  WARNING: ${size.label} plain page “${query}”: ${differences.join('; ')}`);
    }
  } finally {
    await close();
  }
  return checks;
}

async function measureSize(size) {
  // Untimed: the server compresses each file once, on its first request.
  await freshLoad(size.url, false);
  const loads = { site: [], plain: [], baseline: [] };
  for (let i = 0; i < config.loads; i++) {
    for (const [name, path] of Object.entries(PAGES)) {
      loads[name].push(await freshLoad(new URL(path, size.url).href, name === 'site'));
    }
    const [site, plain, baseline] = [loads.site[i], loads.plain[i], loads.baseline[i]];
    log(
      `  ${size.label}: load ${i + 1}/${config.loads}: first results site ${round1(site.firstResults)} ms ` +
        `(parse+index ${round1(site.parseIndex ?? NaN)} ms, JSON.parse ${round1(site.jsonParse ?? NaN)} ms, ` +
        `${site.longTasks.length} long tasks after), plain JS ${round1(plain.firstResults)} ms, ` +
        `facet-counting JS ${round1(baseline.firstResults)} ms`,
    );
  }
  const keys = await keystrokes(size);
  const checks = await selfCheck(size);
  const plainChecks = await plainCheck(size);
  return { label: size.label, entries: size.entries, loads, keystrokes: keys, selfCheck: checks, plainCheck: plainChecks };
}

async function browserVersion() {
  const { context, page, close } = await launch();
  try {
    const version = context.browser()?.version();
    if (version) return `Chromium ${version}`;
    const agent = await page.evaluate(() => navigator.userAgent);
    return /(HeadlessChrome|Chrome)\/[\d.]+/.exec(agent)?.[0] ?? agent;
  } finally {
    await close();
  }
}

const results = { browser: await browserVersion(), sizes: [], failed: [] };
for (const size of config.sizes) {
  log(`measuring ${size.label} (${size.entries} entries) at ${size.url}`);
  try {
    results.sizes.push(await measureSize(size));
  } catch (error) {
    // A size the site cannot load (a crash, a timeout) is a result too; the others still run.
    log(`  FAILED: ${size.label}: ${error.message.split('\n')[0]}`);
    results.failed.push({ label: size.label, entries: size.entries, error: error.message.split('\n')[0] });
  }
}
writeFileSync(config.out, JSON.stringify(results, null, 1));
log(`wrote ${config.out}`);
