// The start-up script (src/start.js) run against a stand-in page, in Node: what it starts, in
// which order, and what it falls back on. `cargo xtask test` runs this file with
// `node --test tests/start.test.mjs`; the end-to-end tests (catalogue.test.mjs,
// prerender.test.mjs) see the same script at work in Chromium.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const BASE = '/acp/registry/';
const PAGE_URL = `https://example.test${BASE}`;
const JS = 'acp-catalog-1a2b.js';
const WASM = 'acp-catalog-1a2b_bg.wasm';

/** The script as Trunk writes it into a page published at `BASE`. Its two `import(…)`s (the
 * catalogue's early search, the app) call the stand-in page's `load`: nothing is really
 * imported. */
const SOURCE = readFileSync(new URL('../src/start.js', import.meta.url), 'utf8')
  .replaceAll('{base}', BASE)
  .replaceAll('{js}', JS)
  .replaceAll('{wasm}', WASM);
assert.equal(SOURCE.split('import(').length, 3, 'the script imports the early search and the app, once each');
const AsyncFunction = (async () => {}).constructor;
const GLOBALS = ['window', 'document', 'Worker', 'PerformanceObserver', 'requestAnimationFrame', 'setTimeout', 'fetch'];
const startUp = new AsyncFunction(...GLOBALS, 'load', SOURCE.replaceAll('import(', 'load('));

/** Lets the script run as far as it can before it waits on something the page has not done. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A stand-in page with the script started on it. `paintTiming`: whether the browser reports
 * paint entries; `acpFetch`: whether the page names a registry (`<meta name="acp-fetch">`);
 * `workerStarts`: whether `new Worker` succeeds; `appStarts`: whether importing and starting
 * the app succeeds. The page records what the script did; `paint()`, `frame()`, `task()` and the
 * worker's `answer(data)` and `fail()` play the browser's part.
 */
function start({ paintTiming = true, acpFetch = true, workerStarts = true, appStarts = true, early = false, earlyLoads = true } = {}) {
  let answered;
  const page = {
    fetched: [],
    early: [],
    earlyAnswers: () => answered(),
    sheet: { media: 'print' },
    notice: { hidden: true },
    workers: [],
    imported: [],
    started: [],
    frames: [],
    tasks: [],
    observers: [],
    window: {},
  };
  const document = {
    baseURI: PAGE_URL,
    getElementById: (id) => (id === 'acp-early' && early ? { id } : null),
    querySelector: (selector) => (selector === 'meta[name=acp-fetch]' && acpFetch ? { content: 'registry.json' } : null),
    querySelectorAll: (selector) =>
      ({ 'link[data-after-paint]': [page.sheet], '[data-app-failed]': [page.notice] })[selector] ?? [],
  };
  class Worker {
    constructor(url) {
      if (!workerStarts) throw new Error('workers are disabled');
      this.url = url;
      this.posted = [];
      this.listeners = { message: new Set(), error: new Set() };
      page.workers.push(this);
    }
    addEventListener(type, listener) {
      this.listeners[type].add(listener);
    }
    removeEventListener(type, listener) {
      this.listeners[type].delete(listener);
    }
    postMessage(message) {
      this.posted.push(message);
    }
    answer(data) {
      for (const listener of [...this.listeners.message]) listener({ data });
    }
    fail() {
      for (const listener of [...this.listeners.error]) listener(new Event('error'));
    }
  }
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'resource'] : ['resource'];
    constructor(callback) {
      this.callback = callback;
      this.disconnected = false;
      page.observers.push(this);
    }
    observe(options) {
      this.options = options;
    }
    disconnect() {
      this.disconnected = true;
    }
  }
  page.paint = (name = 'first-contentful-paint') => {
    for (const observer of page.observers.filter((o) => !o.disconnected)) {
      observer.callback({ getEntriesByName: (wanted) => (wanted === name ? [{ name }] : []) }, observer);
    }
  };
  page.frame = () => {
    for (const callback of page.frames.splice(0)) callback();
  };
  page.task = () => {
    for (const callback of page.tasks.splice(0)) callback();
  };
  const load = async (url) => {
    page.imported.push(url);
    if (url.endsWith('early-search.js')) {
      if (!earlyLoads) throw new Error(`${url} failed to load`);
      return {
        start: async (...responses) => {
          page.early.push(await Promise.all(responses));
          await new Promise((resolve) => (answered = resolve));
        },
      };
    }
    if (!appStarts) throw new Error(`${url} failed to load`);
    return { default: async (options) => page.started.push(options) };
  };
  const requestAnimationFrame = (callback) => page.frames.push(callback);
  const setTimeout = (callback) => page.tasks.push(callback);
  const fetch = async (url) => {
    page.fetched.push(url);
    return `the response for ${url}`;
  };
  page.done = startUp(page.window, document, Worker, PerformanceObserver, requestAnimationFrame, setTimeout, fetch, load);
  return page;
}

test('nothing starts before the first contentful paint, then the registry, the wasm and the app', async () => {
  const page = start();
  await settle();
  page.paint('first-paint');
  await settle();
  assert.deepEqual(page.observers[0].options, { type: 'paint', buffered: true });
  assert.equal(page.sheet.media, 'print');
  assert.deepEqual([page.workers, page.imported], [[], []]);

  page.paint();
  await settle();
  assert.ok(page.observers[0].disconnected);
  assert.equal(page.sheet.media, 'all');
  const [worker] = page.workers;
  assert.equal(worker.url, `${BASE}fetch-worker.js`);
  assert.equal(page.window.acpFetchWorker, worker);
  assert.deepEqual(worker.posted, [{ early: `${PAGE_URL}registry.json` }, { compile: `${PAGE_URL}${WASM}` }]);
  assert.deepEqual(page.imported, [`${BASE}${JS}`]);
  assert.deepEqual(page.started, [], 'the app waits for the compiled wasm');

  worker.answer({ progress: 1 });
  worker.answer({ compiled: 'the compiled module' });
  await page.done;
  assert.deepEqual(page.started, [{ module_or_path: 'the compiled module' }]);
  assert.equal(worker.listeners.message.size, 0);
  assert.equal(page.notice.hidden, true);
});

test('without paint timing, it starts a frame and a task later', async () => {
  const page = start({ paintTiming: false });
  await settle();
  assert.deepEqual([page.observers, page.workers], [[], []]);
  page.frame();
  await settle();
  assert.equal(page.sheet.media, 'print');
  page.task();
  await settle();
  assert.equal(page.sheet.media, 'all');
  assert.equal(page.workers.length, 1);
});

test('the page compiles the wasm itself when the worker cannot start, fails or gives none', async (t) => {
  const cases = [
    ['cannot start', { workerStarts: false }, () => {}],
    ['fails', {}, (worker) => worker.fail()],
    ['answers null', {}, (worker) => worker.answer({ compiled: null })],
  ];
  for (const [name, options, act] of cases) {
    await t.test(name, async () => {
      const page = start(options);
      await settle();
      page.paint();
      await settle();
      const [worker] = page.workers;
      if (worker) act(worker);
      await page.done;
      assert.deepEqual(page.started, [{ module_or_path: `${BASE}${WASM}` }]);
      if (name !== 'answers null') assert.equal(page.window.acpFetchWorker, undefined);
    });
  }
});

test('a page that names no registry starts no worker', async () => {
  const page = start({ acpFetch: false });
  await settle();
  page.paint();
  await page.done;
  assert.deepEqual(page.workers, []);
  assert.deepEqual(page.started, [{ module_or_path: `${BASE}${WASM}` }]);
});

test('an app that cannot start shows the notices and fails', async () => {
  const page = start({ appStarts: false, acpFetch: false });
  await settle();
  page.paint();
  await assert.rejects(page.done, /acp-catalog-1a2b\.js failed to load/);
  assert.equal(page.notice.hidden, false);
});

test('on the catalogue, the early search starts after the paint, its files side by side, and the app waits for its answer', async () => {
  const page = start({ early: true });
  await settle();
  assert.deepEqual([page.fetched, page.imported], [[], []], 'nothing before the paint');
  page.paint();
  await settle();
  const files = [`${BASE}acp-early_bg.wasm`, `${BASE}early-cards.json`];
  assert.deepEqual(page.fetched, files);
  assert.deepEqual(page.imported, [`${BASE}early-search.js`]);
  assert.deepEqual(page.early, [files.map((file) => `the response for ${file}`)]);
  assert.deepEqual(page.workers, [], 'the registry and the app wait for the early search');
  page.earlyAnswers();
  await settle();
  const [worker] = page.workers;
  assert.deepEqual(worker.posted, [{ early: `${PAGE_URL}registry.json` }, { compile: `${PAGE_URL}${WASM}` }]);
  assert.deepEqual(page.imported, [`${BASE}early-search.js`, `${BASE}${JS}`]);
  worker.answer({ compiled: 'the compiled module' });
  await page.done;
  assert.deepEqual(page.started, [{ module_or_path: 'the compiled module' }]);
});

test('an early search that cannot load leaves the page to the app at once', async () => {
  const page = start({ early: true, earlyLoads: false });
  await settle();
  page.paint();
  await settle();
  assert.equal(page.workers.length, 1);
  page.workers[0].answer({ compiled: 'the compiled module' });
  await page.done;
  assert.deepEqual(page.started, [{ module_or_path: 'the compiled module' }]);
});
