// The catalogue's service worker: the site opens offline once it has been visited.
//
// `cargo xtask dist` writes it into the build as `service-worker.js`, with BUILD (a digest of
// the build's files: a new build is a new worker) and FILES (the app's files: the pages as
// built, the loading shell, the wasm, its glue, the styles) filled in; the app registers it
// once it is live (`src/offline.rs`).
//
// - Pages (navigations): from the network; when it fails, or gives no answer in
//   PAGE_PATIENCE ms, the copy of that page kept from an earlier visit, else the catalogue's
//   page for `/`, else the loading shell (the app then renders the page from the registry it
//   kept). Pages that load are kept.
// - The app's files: from the cache filled at install (their names carry a hash; a new build
//   brings new ones).
// - Icons and other files of the site or of other servers (SVG, PNG): from the network, the
//   copy kept when it fails.
// - Data (`*.json`) and everything else: never answered here. The page fetches the registry
//   and its optional files itself and keeps their last good copies, because it must see the
//   network's true answer to name the cause and to say how old the copy it shows is.
//
// Caches are named after the build; activating a new build deletes the old ones.

const BUILD = '__BUILD__';
const FILES = __FILES__;
const SHELL = 'shell.html';
const APP_CACHE = `acp-app-${BUILD}`;
const VISITED_CACHE = `acp-visited-${BUILD}`;
const PAGE_PATIENCE = 4000;

const scope = new URL(self.registration.scope);
const inScope = (url) => url.origin === scope.origin && url.pathname.startsWith(scope.pathname);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(APP_CACHE)
      // Pages asked of the server (a copy in the browser's cache may be an older build's);
      // the rest, whose names change with their contents, may come from that cache.
      .then((cache) =>
        cache.addAll(
          FILES.map((file) => new Request(new URL(file, scope), { cache: file === './' || file.endsWith('.html') ? 'no-cache' : 'default' })),
        ),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => (name.startsWith('acp-app-') || name.startsWith('acp-visited-')) && !name.endsWith(BUILD))
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    if (inScope(url)) event.respondWith(page(request, url));
    return;
  }
  if (inScope(url) && FILES.some((file) => new URL(file, scope).href === url.href)) {
    event.respondWith(appFile(request));
    return;
  }
  if (/\.(svg|png)$/i.test(url.pathname)) event.respondWith(kept(request));
});

/** A page: the network's answer within PAGE_PATIENCE, else a copy kept. */
async function page(request, url) {
  const visited = await caches.open(VISITED_CACHE);
  const network = fetch(request).then((response) => {
    if (response.ok && response.type === 'basic') visited.put(request, response.clone());
    return response;
  });
  const patience = new Promise((resolve) => setTimeout(resolve, PAGE_PATIENCE, null));
  try {
    const answer = await Promise.race([network, patience]);
    if (answer && answer.status < 500) return answer;
  } catch {
    // No network: a copy below.
  }
  const copy = (await visited.match(request, { ignoreSearch: true })) ?? (await fallback(url));
  return copy ?? network;
}

/** The catalogue for `/` (whatever its query), the loading shell for any other page. */
async function fallback(url) {
  const app = await caches.open(APP_CACHE);
  const home = url.pathname === scope.pathname;
  return (home && (await app.match(new URL('./', scope)))) || app.match(new URL(SHELL, scope));
}

/** One of the build's files: the copy from install. */
async function appFile(request) {
  const app = await caches.open(APP_CACHE);
  return (await app.match(request)) ?? fetch(request);
}

/** An image: the network's, kept; the copy kept when the network fails. */
async function kept(request) {
  const visited = await caches.open(VISITED_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) visited.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await visited.match(request);
    if (copy) return copy;
    throw error;
  }
}
