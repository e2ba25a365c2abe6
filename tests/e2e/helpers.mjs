// Shared set-up for the end-to-end tests: a fresh headless Chromium and the URLs of the site under test.
//
// `cargo xtask test` compiles the release site once per registry kind, lays it out for each site
// below, serves each on 127.0.0.1 and runs `node --test tests/e2e/` (several files at once) with:
//   SITE_URL      the site published at `/`, e.g. http://127.0.0.1:41234/
//   SITE_URL_SUB  the same site published under `/acp/registry/`, as on GitHub Pages
//   AGENTREGISTRY_SITE_URL, AGENTREGISTRY_URL  a site over a stand-in AgentRegistry, and the
//                 stand-in (agentregistry.test.mjs)
//   AGENTREGISTRY_NETWORK_SITE_URL, AGENTREGISTRY_NETWORK_URL  the same over a second stand-in,
//                 whose failures on demand reach no other file (network.test.mjs)
//   CHROMIUM      the browser binary (/usr/bin/chromium)
import { after } from 'node:test';
import { chromium } from 'playwright-core';

/** Flags that keep Chromium headless, offline-quiet and runnable as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The test file's browser, started by the first `launch` and closed after the file's tests. */
let browser;
after(async () => {
  await (await browser)?.close();
});

/**
 * A fresh browser context with a page: its own storage, cache, cookies and service workers, so
 * nothing leaks between tests. The test file's one Chromium is started by the first call (a
 * browser per test cost seconds each on a busy machine, a context a fraction of that).
 * `options` are passed to `newContext`, e.g. `{ colorScheme: 'dark' }`.
 * The site's service worker is blocked unless `{ serviceWorkers: 'allow' }` is given: requests
 * it answers from its cache would bypass `page.route`, and only `network.test.mjs`, which tests
 * it, wants it.
 * Close it with `context.close()`.
 */
export async function launch(options = {}) {
  browser ??= chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const context = await (await browser).newContext({ serviceWorkers: 'block', ...options });
  await watchContentSecurityPolicy(context);
  context.on('page', explainStalls);
  const page = await context.newPage();
  explainStalls(page);
  return { context, page };
}

/** The Content-Security-Policy violations seen in each context, until taken. */
const violations = new WeakMap();

/**
 * Makes `context` fail on any Content-Security-Policy violation: every page reports its
 * `securitypolicyviolation` events (and the browser's own console reports of them, which also
 * cover pages without JavaScript), and `context.close()` throws if there were any that
 * `takeCspViolations` did not take. The built site sends a strict policy in every page (see
 * xtask/src/csp.rs), so a violation is a bug: a blocked script, style attribute or load.
 */
async function watchContentSecurityPolicy(context) {
  const seen = [];
  violations.set(context, seen);
  await context.exposeBinding('__acpCspViolation', ({ page }, text) => {
    seen.push(`${text} (on ${page?.url() ?? '?'})`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__acpCspViolation(
        `${event.effectiveDirective} refused ${event.blockedURI || 'inline'} at ${event.sourceFile || '?'}:${event.lineNumber}`,
      );
    });
  });
  context.on('console', (message) => {
    if (message.type() === 'error' && /Content[ -]Security[ -]Policy/i.test(message.text())) {
      seen.push(`console: ${message.text()} (on ${message.page()?.url() ?? '?'})`);
    }
  });
  const close = context.close.bind(context);
  context.close = async (...args) => {
    await close(...args);
    if (seen.length > 0) {
      throw new Error(`Content-Security-Policy violations:\n  ${[...new Set(seen)].join('\n  ')}`);
    }
  };
}

/** The Content-Security-Policy violations seen in `context` so far, which no longer fail it. */
export function takeCspViolations(context) {
  const seen = violations.get(context) ?? [];
  return seen.splice(0, seen.length);
}

const explained = new WeakSet();
/** Per page: what it has asked for and not yet received, and what went wrong in it. */
const unanswered = new WeakMap();

/**
 * Makes the navigations of `page` wait for the document (`domcontentloaded`) unless told
 * otherwise, not for every subresource (`load`): the tests wait for what they check, and a
 * headless browser's favicon request has been seen to hold `load` back for over 30 s. A
 * navigation that still times out says which requests were unanswered.
 */
function explainStalls(page) {
  if (explained.has(page)) {
    return;
  }
  explained.add(page);
  const started = new Map();
  const errors = [];
  page.on('request', (request) => started.set(request, Date.now()));
  for (const end of ['requestfinished', 'requestfailed']) {
    page.on(end, (request) => started.delete(request));
  }
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  unanswered.set(page, () => {
    const now = Date.now();
    const pending = [...started].map(([r, at]) => `${r.method()} ${r.url()} (${now - at} ms)`);
    return `still unanswered: ${pending.join(', ') || 'nothing'}${errors.length ? `; ${errors.slice(-5).join('; ')}` : ''}`;
  });
  for (const method of ['goto', 'reload', 'goBack', 'goForward']) {
    const original = page[method].bind(page);
    // `goto(url, options)`; the others take only `options`.
    const at = method === 'goto' ? 1 : 0;
    page[method] = async (...args) => {
      args[at] = { waitUntil: 'domcontentloaded', ...args[at] };
      try {
        return await original(...args);
      } catch (error) {
        error.message += `\n${unanswered.get(page)()}`;
        throw error;
      }
    };
  }
}

/** The code of the snippet block whose caption starts with `title`. */
export const snippet = (page, title) =>
  page.locator('figure').filter({ has: page.locator('figcaption > span:first-child', { hasText: new RegExp(`^${title}`) }) }).locator('pre code');

/**
 * A browser for agent pages: copying allowed (so tests can read back what a button copied) and
 * the platform chosen, as a visitor who picked Linux x86-64.
 */
export async function launchForAgentPages() {
  const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(siteUrl()).origin });
  await page.goto(siteUrl());
  await page.evaluate(() => localStorage.setItem('acp-platform', 'linux-x86_64'));
  return { context, page };
}

/** The URL of `path` (e.g. `agents/gemini?x=1`; a leading `/` is relative to the site, not the host). */
export function siteUrl(path = '', base = process.env.SITE_URL) {
  if (!base) {
    throw new Error('SITE_URL is not set: run the suite with `cargo xtask test --e2e-only`');
  }
  return new URL(path.replace(/^\/+/, ''), base).href;
}

/** Like `siteUrl`, for the build published under `/acp/registry/` (SITE_URL_SUB). */
export function subSiteUrl(path = '') {
  return siteUrl(path, process.env.SITE_URL_SUB);
}

/** The app's wasm (the catalogue's or the listing preview's), not the early search's or a worker's. */
export const APP_WASM = /\/(?!acp-early|acp-lookalikes)[^/]*_bg\.wasm$/;

/**
 * Holds back the app's wasm until the function it returns is called: until then the page is the
 * one the build wrote, with its early search, as on a slow link.
 */
export async function holdWasm(page) {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(APP_WASM, async (route) => {
    await held;
    await route.fallback();
  });
  return release;
}

/**
 * Waits until the app has taken the page over: the HTML the build rendered is on screen from
 * the first paint, and becomes live (search, filters, tabs) once the wasm and the registry are
 * in. A person sees no change; a test must not type into the page before it reacts.
 */
export async function live(page) {
  try {
    await page.waitForFunction(() => document.getElementById('app') && !document.querySelector('#app[data-prerendered]'));
  } catch (error) {
    error.message += `\n${unanswered.get(page)?.() ?? ''}`;
    throw error;
  }
}
