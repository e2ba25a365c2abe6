// An AgentRegistry's long listing, loaded: `node bench/paging.mjs <config.json>`.
//
// `cargo xtask bench` serves a synthetic listing with a round trip per page and the site built
// for it, and writes the config: `{url, agents, runs, chromium, out}`. Each run loads the site in
// a fresh context and records, in the page, the first frame where the results' count shows any
// agents and the first where it shows all of them with the paging progress gone (ms since
// navigation). `out` gets one `{firstMs, loadedMs}` per run.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/helpers.mjs';

const TIMEOUT = 120_000;
const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Runs in the page before its scripts: the frame times of the first agents and of all. */
function probe(agents) {
  const shown = () => {
    const count = document.querySelector('section[aria-label=Results] p[role=status]')?.textContent ?? '';
    const n = Number(count.match(/^(\d+) agents?$/)?.[1] ?? 0);
    const paging = [...document.querySelectorAll('[role=status]')].some((s) => s.textContent.startsWith('Loading agents…'));
    return { n, paging };
  };
  const frame = () => {
    const { n, paging } = shown();
    if (n > 0 && window.__benchFirst === undefined) window.__benchFirst = performance.now();
    if (n === agents && !paging) {
      window.__benchLoaded = performance.now();
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const browser = await chromium.launch({ executablePath: config.chromium, args: CHROMIUM_ARGS });
const runs = [];
try {
  for (let run = 0; run < config.runs; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(probe, config.agents);
    await page.goto(config.url);
    await page.waitForFunction(() => window.__benchLoaded !== undefined, null, { timeout: TIMEOUT });
    const [firstMs, loadedMs] = await page.evaluate(() => [window.__benchFirst, window.__benchLoaded]);
    console.log(`  run ${run + 1}: first agents at ${firstMs.toFixed(0)} ms, all ${config.agents} at ${loadedMs.toFixed(0)} ms`);
    runs.push({ firstMs, loadedMs });
    await context.close();
  }
} finally {
  await browser.close();
}
writeFileSync(config.out, JSON.stringify(runs, null, 2));
