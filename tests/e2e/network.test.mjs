// Networks fail: optional files that never answer, outages after a good visit, stalls, a
// listing page that hangs, hostile icons and descriptions, and causes named truly (memory over a
// long session is memory.test.mjs). Faults are injected with `page.route`, and, where a real server is needed
// (cached redirects, a corrupt compression, a missing CORS header), by a small server of this
// file on another origin that the registry's URL is redirected to.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { launch, live, siteUrl } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));
const TOTAL = REGISTRY.agents.length;
const SCREENSHOTS = process.env.SCREENSHOTS_DIR;

const count = (page) => page.getByText(/^\d+ (agents?|results?)$/);
const countOf = async (page) => Number((await count(page).textContent()).split(' ')[0]);
const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });
const results = (page) => page.getByRole('region', { name: 'Results' });
const card = (page, name) => results(page).getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });

/** Saves a screenshot when SCREENSHOTS_DIR is set, to look at by eye. */
async function shoot(page, name) {
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

/** A route handler that never answers, and lets go of every request it holds at the end. */
function stall() {
  const held = [];
  const handler = (route) => {
    held.push(route);
  };
  handler.release = () => Promise.all(held.splice(0).map((route) => route.abort().catch(() => {})));
  return handler;
}

/** The registry with `entries` added first (their names sort first). */
function withAgents(...entries) {
  const registry = structuredClone(REGISTRY);
  registry.agents.unshift(...entries);
  return registry;
}

function agent(id, fields = {}) {
  return {
    ...structuredClone(REGISTRY.agents.find((a) => a.id === 'claude-acp')),
    id,
    name: id,
    icon: undefined,
    ...fields,
  };
}

/**
 * The script time (s, from the DevTools metrics) of typing "t" then "s" after "agen" in the
 * search box, each until its results are drawn: the least of three rounds for each keystroke.
 * Other work on the machine only ever adds to a sample, so the least is the keystroke's own
 * cost; a keystroke that costs more costs more in every round.
 */
async function keystrokes(page, context) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const script = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ScriptDuration').value;
  const shown = (query) =>
    page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q && document.querySelector('mark'), query);
  // The caret after the text, as a person clicking at its end puts it.
  await page.getByRole('searchbox', { name: 'Search agents' }).press('End');
  const queries = ['agent', 'agents'];
  const least = queries.map(() => Infinity);
  for (let round = 0; round < 3; round++) {
    for (const [i, query] of queries.entries()) {
      await page.waitForTimeout(300);
      const before = await script();
      await page.keyboard.type(query.at(-1));
      await shown(query);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
      least[i] = Math.min(least[i], (await script()) - before);
    }
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await shown('agen');
  }
  await cdp.detach();
  return least;
}

/**
 * Waits until the service worker controls the page, the registry is kept, and the worker itself
 * can read the catalogue's page from what it stored at install (for a moment after it took
 * control, it has been seen not to yet).
 */
async function installed(page) {
  await page.waitForFunction(async () => {
    if (navigator.serviceWorker.controller?.state !== 'activated') return false;
    const kept = await caches.open('acp-kept-v1');
    return Boolean(await kept.match(new URL('registry.json', document.baseURI).href));
  });
  const context = page.context();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  for (const deadline = Date.now() + 15_000; ; ) {
    // Evaluated in the worker: APP_CACHE and scope are its own.
    const ready = await worker.evaluate(async () => Boolean(await (await caches.open(APP_CACHE)).match(new URL('./', scope))));
    if (ready) return;
    assert.ok(Date.now() < deadline, 'the service worker never held the catalogue page it stored at install');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---------------------------------------------------------------------------------------------
// A server on another origin, for faults only a real server makes.

let fault;
const hits = {};
before(async () => {
  const registryText = readFileSync(new URL('../../public/registry.json', import.meta.url));
  fault = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Content-Encoding, Retry-After' };
    switch (path) {
      case '/loop':
        // A redirect to itself that browsers may cache for an hour.
        response.writeHead(301, { ...cors, location: '/loop', 'cache-control': 'max-age=3600' });
        return response.end();
      case '/corrupt-gzip':
        response.writeHead(200, { ...cors, 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return response.end(Buffer.from('this is not gzip at all, but the server says it is'.repeat(20)));
      case '/no-cors':
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(registryText);
      default:
        response.writeHead(404, cors);
        return response.end();
    }
  });
  fault.listen(0, '127.0.0.1');
  await once(fault, 'listening');
});
after(() => fault.close());
const faultUrl = (path) => `http://127.0.0.1:${fault.address().port}${path}`;
const redirectTo = (path) => (route) => route.fulfill({ status: 302, headers: { location: faultUrl(path), 'cache-control': 'no-store' } });

// ---------------------------------------------------------------------------------------------

describe('optional files never hold the catalogue', () => {
  test('the probe results stall forever and a JetBrains view fails: the catalogue is live, each says so quietly', async () => {
    const { context, page } = await launch();
    const matrix = stall();
    try {
      await page.route('**/protocol-matrix.json', matrix);
      await page.route('**/registry-for-jetbrains.json', (route) => route.fulfill({ status: 503, body: 'down' }));
      await page.route('**/quarantine.json', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Sign in</title>' }));
      const start = Date.now();
      await page.goto(siteUrl());
      await live(page);
      assert.ok(Date.now() - start < 8000, `live after ${Date.now() - start} ms`);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
      const notes = page.getByRole('status', { name: 'Optional files' });
      await notes.getByText(/^The JetBrains view could not be loaded: .*registry-for-jetbrains\.json answered HTTP 503.*Meanwhile where agents are listed for JetBrains IDEs is not known\.$/).waitFor();
      await notes.getByText(/^The quarantine list could not be loaded: .*quarantine\.json is not a quarantine list: .*not valid JSON/).waitFor();
      // The matrix is given up after 12 seconds of silence.
      await notes.getByText(/^The probe results could not be loaded: .*protocol-matrix\.json did not answer within 12 seconds.*Meanwhile pages say “not probed”\.$/).waitFor({ timeout: 20_000 });
      assert.equal(await page.getByRole('alert').count(), 0, 'no alarm for an optional file');
      await notes.getByRole('button', { name: 'Dismiss' }).click();
      assert.equal(await notes.count(), 0);
    } finally {
      await matrix.release();
      await context.close();
    }
  });
});

describe('the last good copy', () => {
  let context;
  let page;
  before(async () => {
    ({ context, page } = await launch({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } }));
    await page.goto(siteUrl());
    await live(page);
    await installed(page);
  });
  after(async () => context.close());

  test('offline after one visit: the kept copy with its age, search and agent pages work', async () => {
    // Three hours later, and no network at all.
    await page.clock.install({ time: Date.now() + 3 * 3600_000 });
    await context.setOffline(true);
    try {
      await page.reload();
      const banner = page.getByRole('alert').filter({ hasText: 'Showing the registry as of 3 hours ago' });
      await banner.getByText('Showing the registry as of 3 hours ago: this browser is offline').waitFor();
      await banner.getByRole('button', { name: 'Retry' }).waitFor();
      await live(page);
      assert.equal(await countOf(page), TOTAL);
      await shoot(page, 'offline-banner');
      await search(page).fill('claude agent');
      await page.getByRole('link', { name: 'Claude Agent', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Claude Agent' }).waitFor();
      // A page never visited opens too: the loading shell, then the page from the kept copy.
      await page.goto(siteUrl('agents/gemini/'));
      await page.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
      await page.getByRole('tab', { name: 'npx' }).waitFor();
      await page.getByText('Showing the registry as of 3 hours ago').waitFor();
    } finally {
      await context.setOffline(false);
    }
  });

  test('the registry cannot be reached: the kept copy at once, then the fresh one on Retry', async () => {
    let fail = true;
    await page.route('**/registry.json', (route) => (fail ? route.abort('connectionrefused') : route.fallback()));
    try {
      await page.goto(siteUrl());
      const banner = page.getByRole('alert').filter({ hasText: 'Showing the registry as of' });
      // The clock the previous test moved on stays moved: the copy kept then is hours old.
      await banner.getByText(/^Showing the registry as of (less than a minute|\d+ (minutes?|hours?)) ago: registry\.json could not be reached$/).waitFor();
      await banner.getByText(/Could not reach .*registry\.json: the server did not answer/).waitFor();
      await live(page);
      fail = false;
      await banner.getByRole('button', { name: 'Retry' }).click();
      await banner.waitFor({ state: 'detached' });
      assert.equal(await countOf(page), TOTAL);
    } finally {
      await page.unroute('**/registry.json');
    }
  });

  test('the registry stalls: still waiting, the kept copy by 3 s, then given up with Retry', async () => {
    const registry = stall();
    await page.route('**/registry.json', registry);
    try {
      const start = Date.now();
      await page.goto(siteUrl());
      const waiting = page.getByRole('status').filter({ hasText: 'Showing the registry as of' });
      await waiting.getByText(/still waiting for registry\.json… \([3-5] s\)/).waitFor();
      await live(page);
      assert.ok(Date.now() - start < 9000, `kept copy live after ${Date.now() - start} ms`);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
      const given = page.getByRole('alert').filter({ hasText: 'Showing the registry as of' });
      await given.getByText(/: registry\.json did not answer for 12 seconds$/).waitFor({ timeout: 20_000 });
      await given.getByText(/did not answer within 12 seconds: the server or the connection is very slow, or stalled\. Retry/).waitFor();
      await shoot(page, 'kept-after-timeout');
    } finally {
      await page.unroute('**/registry.json');
      await registry.release();
    }
  });
});

describe('timeouts with words, with nothing kept', () => {
  test('a stalled registry: "still waiting", then the built page with the timeout and a Retry that works', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 800 } });
    const registry = stall();
    try {
      await page.route('**/registry.json', registry);
      await page.goto(siteUrl('agents/gemini/'));
      const waiting = page.getByRole('status').filter({ hasText: 'Still waiting for registry.json' });
      await waiting.getByText(/^Still waiting for registry\.json… \([3-6] s\)$/).waitFor();
      assert.match(await waiting.textContent(), /as it was when the site was built/);
      await shoot(page, 'still-waiting');
      const notice = page.getByRole('alert');
      await notice.getByText(/registry\.json did not answer within 12 seconds/).waitFor({ timeout: 20_000 });
      assert.match(await notice.textContent(), /as it was when the site was built/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Gemini CLI');
      await shoot(page, 'timeout-notice');
      await page.unroute('**/registry.json');
      await notice.getByRole('button', { name: 'Retry' }).click();
      await live(page);
      assert.equal(await page.getByRole('alert').count(), 0);
    } finally {
      await registry.release();
      await context.close();
    }
  });
});

describe('an AgentRegistry page that stalls', () => {
  // A stand-in of its own: its failures on demand must not reach agentregistry.test.mjs,
  // which runs beside this file.
  const SITE = process.env.AGENTREGISTRY_NETWORK_SITE_URL;
  const SERVICE = process.env.AGENTREGISTRY_NETWORK_URL;
  const PAGES = [1, 2, 3].map((n) =>
    JSON.parse(readFileSync(new URL(`../fixtures/agentregistry/page-${n}.json`, import.meta.url), 'utf8')),
  );

  test('the agents already loaded stay listed and searchable, then "Load the rest" resumes', async () => {
    assert.ok(SITE, 'run with `cargo xtask test`, which sets AGENTREGISTRY_SITE_URL');
    const { context, page } = await launch();
    const second = stall();
    try {
      await page.route(/\/discover\/agents\?.*page=2&/, second);
      await page.goto(siteUrl('', SITE));
      const firstPage = PAGES[0].items.filter((i) => typeof i.name === 'string');
      await page.getByRole('status').filter({ hasText: /^Loading agents… page 2 of 3 \(\d+ agents of \d+ so far\)/ }).waitFor();
      await count(page).waitFor();
      assert.equal(await countOf(page), firstPage.length);
      await search(page).fill(firstPage[0].name);
      await card(page, firstPage[0].name).waitFor();
      await page.getByRole('status').filter({ hasText: /— waiting for \d+ s$/ }).waitFor();
      const alert = page.getByRole('alert');
      await alert.getByText(`Only part of the registry could be loaded: showing the ${firstPage.length} agents loaded so far.`).waitFor({ timeout: 20_000 });
      await alert.getByText(/page 2 of the agent listing could not be fetched: .*did not answer within 12 seconds/).waitFor();
      await page.unroute(/\/discover\/agents\?.*page=2&/);
      await search(page).fill('');
      await alert.getByRole('button', { name: 'Load the rest' }).click();
      const all = PAGES.flatMap((p) => p.items).filter((i) => typeof i.name === 'string').length;
      await page.getByText(`${all} agents`, { exact: true }).waitFor();
    } finally {
      await second.release();
      await context.close();
    }
  });

  test('a service without the CORS header is named, with the header to send', async () => {
    const { context, page } = await launch();
    try {
      // The stand-in answers the first page without the header (a fulfilled route would not do:
      // the browser does not check CORS on what Playwright answers).
      await fetch(new URL('/__control/no-cors?page=1&times=1', SERVICE), { method: 'POST' });
      await page.goto(siteUrl('', SITE));
      const origin = new URL(SITE).origin;
      const alert = page.getByRole('alert');
      await alert.getByText(/could not be listed/).waitFor();
      const text = await alert.textContent();
      assert.match(text, /answered, but does not let this site read .*\/discover\/agents.* \(CORS\)/);
      assert.ok(text.includes(`Access-Control-Allow-Origin: ${origin}`), text);
    } finally {
      await context.close();
    }
  });
});

describe('bounded work per entry', () => {
  // One path of 880,000 segments: 5 MB.
  const hugeIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0${' L1 1'.repeat(880_000)}"/></svg>`;
  const useBomb = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path id="a" d="M0 0h1v1z"/>${'<use href="#a"/>'.repeat(40)}</svg>`;
  // One 5,000-character entity referenced 20,000 times: 65 KB that expand to 100 MB of text.
  const entityBomb = `<!DOCTYPE svg [<!ENTITY e "${'x'.repeat(5_000)}">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><text>${'&e;'.repeat(15_000)}</text></svg>`;
  // An entity that expands to a script.
  const scriptEntity = '<!DOCTYPE svg [<!ENTITY s "&#60;script&#62;window.parent.ran=1&#60;/script&#62;">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">&s;<path d="M0 0h16v16H0z"/></svg>';
  // A link whose `href` an animation sets to script.
  const setHref = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><a><set attributeName="href" to="javascript:window.parent.ran=2"/><path d="M0 0h16v16H0z"/></a></svg>';
  const description = `An agent that does everything. ${'agent '.repeat(175_000)}`;
  const registry = withAgents(
    agent('aaa-huge-icon', { name: 'AAA Huge Icon', icon: 'huge-icon.svg' }),
    agent('aaa-use-bomb', { name: 'AAA Use Bomb', icon: 'use-bomb.svg' }),
    agent('aaa-long-description', { name: 'AAA Long Description', description }),
    agent('aaa-entity-bomb', { name: 'AAA Entity Bomb', icon: 'entity-bomb.svg' }),
    agent('aaa-script-entity', { name: 'AAA Script Entity', icon: 'script-entity.svg' }),
    agent('aaa-set-href', { name: 'AAA Set Href', icon: 'set-href.svg' }),
  );

  let context;
  let page;
  before(async () => {
    ({ context, page } = await launch({ viewport: { width: 1280, height: 900 } }));
    await page.route('**/registry.json', (route) => route.fulfill({ json: registry }));
    await page.route('**/huge-icon.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: hugeIcon }));
    await page.route('**/use-bomb.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: useBomb }));
    await page.route('**/entity-bomb.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: entityBomb }));
    await page.route('**/script-entity.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: scriptEntity }));
    await page.route('**/set-href.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: setHref }));
  });
  after(async () => context.close());

  test('a 5 MB icon is not drawn: a monogram, the page stays responsive, and its page says why', async () => {
    await page.goto(siteUrl());
    await live(page);
    const huge = card(page, 'AAA Huge Icon');
    await huge.getByText('A', { exact: true }).waitFor();
    assert.equal(await huge.locator('.icon-mask').count(), 0);
    await card(page, 'AAA Use Bomb').getByText('A', { exact: true }).waitFor();
    // Frames keep coming: the page paints.
    const frame = await page.evaluate(
      () => new Promise((resolve) => {
        const start = performance.now();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
      }),
    );
    assert.ok(frame < 500, `two frames took ${frame} ms`);
    await search(page).fill('gemini');
    await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
    await page.goto(siteUrl('agents/aaa-huge-icon/'));
    await page.getByText(`Icon not shown: the icon is ${(hugeIcon.length / 1e6).toFixed(1)} MB or more, over the 64 KiB an icon may have.`).waitFor();
    await page.goto(siteUrl('agents/aaa-use-bomb/'));
    await page.getByText('Icon not shown: the icon has 17 <use> elements or more, over the 16 an icon may have.').waitFor();
  });

  test('icons with entities or a script-setting animation are not drawn, nothing runs, the tab outlives them', async () => {
    assert.ok(entityBomb.length < 65_536, `${entityBomb.length} bytes: within the byte bound`);
    await page.goto(siteUrl());
    await live(page);
    for (const name of ['AAA Entity Bomb', 'AAA Script Entity', 'AAA Set Href']) {
      const tile = card(page, name);
      await tile.getByText('A', { exact: true }).waitFor();
      assert.equal(await tile.locator('.icon-mask').count(), 0, `${name}: no mask`);
    }
    // The blow-up crashed the tab about 9 s after it was drawn: 10 s later the page still
    // answers and paints.
    await page.waitForTimeout(10_000);
    const frame = await page.evaluate(
      () => new Promise((resolve) => {
        const start = performance.now();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
      }),
    );
    assert.ok(frame < 500, `two frames took ${frame} ms`);
    assert.equal(await page.evaluate(() => window.ran), undefined, 'no script of an icon ran');
    await page.goto(siteUrl('agents/aaa-entity-bomb/'));
    await page
      .getByText("Icon not shown: the icon's <!DOCTYPE> declares entities, which can hide markup or blow up in size.")
      .waitFor();
    await shoot(page, 'entity-icon-agent-page');
    await page.goto(siteUrl('agents/aaa-set-href/'));
    await page.getByText('Icon not shown: the icon has a <set> element, which an icon may not have.').waitFor();
    // Where the icon is, a click opens nothing and runs nothing.
    await page.getByText('A', { exact: true }).first().click();
    assert.equal(await page.evaluate(() => window.ran), undefined, 'no script of an icon ran');
  });

  test('a 1 MB description: a short card, bounded marks, and keystrokes cost what they cost without it', async () => {
    await page.goto(siteUrl('?q=agen'));
    await live(page);
    const long = card(page, 'AAA Long Description');
    await long.waitFor();
    const text = await long.locator('p').first().textContent();
    assert.ok(text.length <= 281, `${text.length} characters on the card`);
    assert.ok((await long.locator('mark').count()) <= 25, 'marks are bounded');
    const withLong = await keystrokes(page, context);
    // The same keystrokes over the same registry without that entry, in the same run: the
    // machine's own cost of re-rendering the results.
    const other = await context.newPage();
    await other.route('**/registry.json', (route) => route.fulfill({ json: REGISTRY }));
    await other.goto(siteUrl('?q=agen'));
    await live(other);
    const without = await keystrokes(other, context);
    await other.close();
    const worst = (samples) => Math.max(...samples);
    const ms = (samples) => samples.map((s) => `${Math.round(s * 1000)} ms`).join(', ');
    assert.ok(
      worst(withLong) < Math.max(0.05, worst(without) * 1.5 + 0.015),
      `script per keystroke with the 1 MB description: ${ms(withLong)}; without it: ${ms(without)}`,
    );
  });

  test('the agent page shows a long description collapsed, with "Show all"', async () => {
    await page.goto(siteUrl('agents/aaa-long-description/'));
    await page.getByRole('heading', { level: 1, name: 'AAA Long Description' }).waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 8000, `the page is ${height} px tall`);
    const show = page.getByRole('button', { name: /^Show all \(1,050,03\d characters\)$/ });
    assert.equal(await show.getAttribute('aria-expanded'), 'false');
    await show.click();
    const less = page.getByRole('button', { name: 'Show less' });
    assert.equal(await less.getAttribute('aria-expanded'), 'true');
    assert.ok((await page.evaluate(() => document.documentElement.scrollHeight)) > height);
  });
});

describe('causes named truly', () => {
  let context;
  let page;
  // The fault server stands in for a registry host on another origin, which a build for such a
  // registry allows in its Content-Security-Policy (`connect-src`): this build's policy knows
  // only its own origin, so it is set aside here (the policy has tests of its own).
  before(async () => ({ context, page } = await launch({ bypassCSP: true })));
  after(async () => context.close());

  /** Opens the catalogue with `handler` answering for registry.json; the notice's text. */
  async function notice(handler) {
    await page.unroute('**/registry.json');
    await page.route('**/registry.json', handler);
    await page.goto(siteUrl());
    const alert = page.getByRole('alert').filter({ hasText: 'The live registry could not be loaded' });
    await alert.waitFor({ timeout: 20_000 });
    return alert.textContent();
  }

  for (const [cause, handler, expected] of [
    ['an empty body', (route) => route.fulfill({ status: 200, body: '' }), /is not a valid registry: the registry is empty \(0 bytes, nothing but white space\): the server sent no content/],
    [
      'an HTML page instead of JSON',
      (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><head><title>Sign in · Example</title></head><body>Sign in</body></html>' }),
      /the registry is an HTML page \(titled "Sign in · Example"\), not JSON: the address serves a web page/,
    ],
    ['nesting too deep', (route) => route.fulfill({ contentType: 'application/json', body: `${'['.repeat(5000)}${']'.repeat(5000)}` }), /the registry is nested more than 128 levels deep at line 1, column 129/],
    ['not UTF-8', (route) => route.fulfill({ contentType: 'application/json', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }), /is not UTF-8 text \(an invalid byte at offset 2\)/],
    [
      'a redirect loop',
      // A real server's loop: the browser follows a redirect that Playwright answers without
      // asking the route again.
      redirectTo('/loop'),
      /registry\.json redirects in a loop \(or to a server that does not answer\): the browser stopped following its redirects/,
    ],
    ['a corrupt compression', redirectTo('/corrupt-gzip'), /could not be decoded: the server says it is compressed \(gzip\), but the data is corrupt/],
    [
      'a server on another origin without CORS',
      redirectTo('/no-cors'),
      /registry\.json redirects to another server, which answered but does not let this site read the file \(CORS\): that server must send the header `Access-Control-Allow-Origin: http:\/\/127\.0\.0\.1:\d+` \(or `\*`\)/,
    ],
    [
      'a 503 with Retry-After',
      (route) => route.fulfill({ status: 503, headers: { 'retry-after': '120' }, body: 'down' }),
      /answered HTTP 503 Service Unavailable: the server has a problem, or is down for maintenance\. It asks to be asked again in 2 minutes; the page will retry by itself then\./,
    ],
    ['no answer at all', (route) => route.abort('connectionrefused'), /Could not reach .*registry\.json: the server did not answer .*Check your connection and retry\./],
  ]) {
    test(cause, async () => {
      assert.match(await notice(handler), expected);
    });
  }

  test('Retry says it is retrying, and which attempt failed', async () => {
    let release;
    await notice((route) => route.fulfill({ status: 500, body: 'broken' }));
    await page.unroute('**/registry.json');
    await page.route('**/registry.json', async (route) => {
      await new Promise((resolve) => (release = resolve));
      await route.fulfill({ status: 500, body: 'still broken' });
    });
    const alert = page.getByRole('alert').filter({ hasText: 'The live registry could not be loaded' });
    await alert.getByRole('button', { name: 'Retry' }).click();
    const retrying = alert.getByRole('button', { name: 'Retrying…' });
    await retrying.waitFor();
    assert.ok(await retrying.isDisabled());
    assert.equal(await retrying.getAttribute('aria-busy'), 'true');
    release();
    await alert.getByText(/^Attempt 2 failed at \d\d:\d\d:\d\d\.$/).waitFor();
    assert.match(await alert.textContent(), /HTTP 500/);
    await alert.getByRole('button', { name: 'Retry' }).waitFor();
  });

  test('after a cached redirect loop, Retry asks the server again', async () => {
    await notice(redirectTo('/loop'));
    const before = hits['/loop'];
    assert.ok(before > 0);
    const alert = page.getByRole('alert').filter({ hasText: 'The live registry could not be loaded' });
    assert.match(await alert.textContent(), /redirects in a loop/);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await alert.getByText(/^Attempt 2 failed at/).waitFor();
    assert.ok(hits['/loop'] > before, `the loop was asked again: ${before} → ${hits['/loop']}`);
  });
});
