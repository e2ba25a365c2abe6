// The first view, as Lighthouse sees it: `node bench/first-view.mjs <config.json>`.
//
// `cargo xtask bench` serves the release build (compressed, as a host serves it) with the
// plainest honest catalogue (plain.html) beside it over the same bundled registry, and writes
// the config: `{pages: [{name, url}], runs, chromium, outDir, out}`. This script runs the
// Lighthouse CLI (npm `lighthouse`, its defaults: a mobile phone on a simulated slow 4G network
// with a 4× slower CPU) `runs` times on every page, the pages interleaved so that a busy moment
// of the machine falls on all of them alike, each run in a fresh Chromium with a fresh profile
// (Lighthouse's own launcher, given the flags of tests/e2e/helpers.mjs). Each report is kept in
// `outDir`; `out` gets the figures the xtask reduces to medians.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../tests/e2e/helpers.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** The figures of one report; `null` where Lighthouse could not tell. */
function figures(report) {
  const audit = (id) => report.audits[id]?.numericValue ?? null;
  const requests = report.audits['network-requests']?.details?.items ?? [];
  const wasm = requests.filter((r) => r.url.endsWith('.wasm'));
  const lcpElement = report.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
  const score = report.categories.performance?.score;
  return {
    score: typeof score === 'number' ? Math.round(score * 100) : null,
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    speedIndex: audit('speed-index'),
    transferred: audit('total-byte-weight'),
    requests: requests.length,
    wasmTransferred: wasm.length ? wasm.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) : null,
    wasmResource: wasm.length ? wasm.reduce((sum, r) => sum + (r.resourceSize ?? 0), 0) : null,
    lcpElement: lcpElement?.snippet ?? null,
    benchmarkIndex: report.environment?.benchmarkIndex ?? null,
    warnings: [report.runtimeError?.message, ...(report.runWarnings ?? [])].filter(Boolean),
  };
}

/** One Lighthouse run of `url`; its report is written to `path`. */
function lighthouse(url, path) {
  const run = spawnSync(
    'lighthouse',
    [
      url,
      '--only-categories=performance',
      '--output=json',
      `--output-path=${path}`,
      `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
      '--quiet',
    ],
    { env: { ...process.env, CHROME_PATH: config.chromium }, encoding: 'utf8', timeout: 300_000 },
  );
  if (run.status !== 0) {
    throw new Error(`lighthouse ${url} failed (${run.error ?? `exit ${run.status}`}):\n${run.stderr}`);
  }
  return JSON.parse(readFileSync(path, 'utf8'));
}

const results = { lighthouse: null, userAgent: null, runs: Object.fromEntries(config.pages.map((p) => [p.name, []])) };
for (let run = 1; run <= config.runs; run++) {
  for (const { name, url } of config.pages) {
    const report = lighthouse(url, join(config.outDir, `${name}-${run}.json`));
    results.lighthouse ??= report.lighthouseVersion;
    results.userAgent ??= report.environment?.hostUserAgent ?? null;
    const seen = figures(report);
    results.runs[name].push(seen);
    const s = (ms) => (ms === null ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
    console.log(
      `  run ${run}/${config.runs} ${name}: performance ${seen.score}, FCP ${s(seen.fcp)}, LCP ${s(seen.lcp)}, ` +
        `TBT ${Math.round(seen.tbt ?? NaN)} ms, CLS ${seen.cls?.toFixed(3)}, ${Math.round((seen.transferred ?? NaN) / 1000)} KB`,
    );
    for (const warning of seen.warnings) console.log(`    lighthouse: ${warning}`);
  }
}
writeFileSync(config.out, JSON.stringify(results, null, 1));
console.log(`wrote ${config.out}`);
