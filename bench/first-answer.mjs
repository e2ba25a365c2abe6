// Time to first answer on a phone: `node bench/first-answer.mjs <config.json>`.
//
// `cargo xtask bench` serves the release build and the plain page (plain.html) from one folder
// behind a slow link that every response shares (`serve::spawn_on_link`: the requests of the
// page's workers are paced too, which Chromium's per-page network emulation does not do), and
// writes the config: `{pages: [{name, url}], runs, query, cpuSlowdown, chromium, out}`.
//
// Each run loads every page once, the pages alternating, each in a fresh headless Chromium with
// a fresh profile (nothing cached, no service worker), its CPU slowed `cpuSlowdown` times (CDP
// `Emulation.setCPUThrottlingRate`). As soon as the box named "Search agents" shows, the query
// is typed into it, a key at a time, as a person would. An init script watches the page: the
// answer is the first moment the results' count (`section[aria-label=Results] [role=status]`)
// says "<n> agents" and no longer what it said as the page arrived (the whole registry's count,
// or that it is loading), with the query whole in the box and a first visible card that names
// the query; its `performance.now()` (from navigation start) is
// the time to first answer. Every response's bytes and end time (Playwright's
// `requestfinished`, which sees the workers' requests too) say what was received before it.
import { readFileSync, writeFileSync } from 'node:fs';
import { freshBrowser } from './fresh-browser.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
/** A phone's screen. */
const VIEWPORT = { width: 412, height: 823 };
const TIMEOUT = 60_000;

/** Runs in the page before its scripts: records when the search box shows and when it answers. */
function probe(query) {
  const status = () => document.querySelector('section[aria-label=Results] [role=status]');
  // What the count said as the page arrived: the whole registry, or that it is loading.
  let first = null;
  const check = () => {
    const box = document.querySelector('input[type=search]');
    if (box && window.__benchBoxShown === undefined && box.checkVisibility()) {
      window.__benchBoxShown = performance.now();
    }
    const text = status()?.textContent?.trim() ?? '';
    first ??= text || null;
    const count = /^(\d+) (agents?|results?)$/.exec(text);
    if (window.__benchAnswered !== undefined || !count || text === first || box?.value !== query) return;
    const card = [...document.querySelectorAll('section[aria-label=Results] li h2')].find((h) => h.checkVisibility());
    if (card?.textContent.toLowerCase().includes(query.toLowerCase())) {
      window.__benchAnswered = performance.now();
      window.__benchAnswer = text;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  document.addEventListener('input', check, true);
}

async function load(url) {
  const { context, page, close } = await freshBrowser(config.chromium, { viewport: VIEWPORT, isMobile: true, hasTouch: true });
  try {
    const responses = [];
    context.on('requestfinished', async (request) => {
      try {
        const timing = request.timing();
        const sizes = await request.sizes();
        responses.push({
          url: request.url(),
          end: timing.startTime + timing.responseEnd,
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        });
      } catch {}
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: config.cpuSlowdown });
    await page.addInitScript(probe, config.query);
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT });
    const box = page.getByRole('searchbox', { name: 'Search agents' });
    await box.waitFor({ state: 'visible', timeout: TIMEOUT });
    await box.pressSequentially(config.query);
    await page.waitForFunction(() => window.__benchAnswered !== undefined, null, { timeout: TIMEOUT, polling: 50 });
    const seen = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      boxShown: window.__benchBoxShown ?? null,
      answered: window.__benchAnswered,
      answer: window.__benchAnswer,
      marks: Object.fromEntries(
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('acp:'))
          .map((m) => [m.name, Math.round(m.startTime)]),
      ),
    }));
    const answeredAt = seen.origin + seen.answered;
    const before = responses
      .filter((r) => r.end <= answeredAt)
      .map((r) => ({ path: new URL(r.url).pathname, bytes: r.bytes, end: Math.round(r.end - seen.origin) }));
    return { boxShown: seen.boxShown, answered: seen.answered, answer: seen.answer, marks: seen.marks, before };
  } finally {
    await close();
  }
}

const results = Object.fromEntries(config.pages.map((p) => [p.name, []]));
// One untimed load each, so that the server has compressed what it serves, as a host's cache has.
for (const { url } of config.pages) await load(url).catch(() => {});
for (let run = 1; run <= config.runs; run++) {
  // Alternating which page goes first, so that a busy moment falls on both alike.
  const pages = run % 2 ? config.pages : [...config.pages].reverse();
  for (const { name, url } of pages) {
    const seen = await load(url);
    results[name].push(seen);
    const bytes = seen.before.reduce((sum, r) => sum + r.bytes, 0);
    console.log(
      `  run ${run}/${config.runs} ${name}: answered at ${(seen.answered / 1000).toFixed(2)} s ("${seen.answer}"), ` +
        `box shown at ${((seen.boxShown ?? NaN) / 1000).toFixed(2)} s, ${seen.before.length} responses (${bytes} B) before`,
    );
    // Where the time went: when each file arrived and each of the page's own marks, in ms.
    const steps = [
      ...seen.before.filter((r) => r.bytes > 5_000).map((r) => [r.path.split('/').pop() || '/', r.end]),
      ...Object.entries(seen.marks),
    ].sort((a, b) => a[1] - b[1]);
    console.log(`    ${steps.map(([what, at]) => `${what} ${at}`).join(' · ')}`);
  }
}
writeFileSync(config.out, JSON.stringify(results, null, 1));
console.log(`wrote ${config.out}`);
