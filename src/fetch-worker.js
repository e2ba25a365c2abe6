// The registry's download, off the page's thread.
//
// Chromium decodes a compressed body on the thread that reads it: a 10 MB registry served with
// brotli cost the page one task of 75-107 ms however the page read it, and none when read here
// and handed over. The page's start-up script starts this worker once the page is painted and
// has it fetch the registry at once (`{ early: url }`, where it used to preload it); the app then
// claims that download (`{ id, url, claim: true }`), or asks for a GET of its own
// (`{ id, url, init }`), and is told how it goes:
//
//   { id, head: { status, statusText, headers } }  the status, and the headers the app reads
//   { id, chunk }                                  a piece of the body (a transferred Uint8Array)
//   { id, done: true }                             the body is whole
//   { id, error }                                  the request failed (after `head`: in the body)
//
// `{ abort: id }` aborts a request. Everything else (timeouts, what a failure means, the copy
// kept) is the app's, as for the requests it makes itself (src/registry/http.rs).
//
// The start-up script also has it compile the app's wasm (`{ compile: url }`, answered
// `{ compiled: module }`, or `{ compiled: null }` when it cannot, and the page compiles it
// itself): the browser compiles a wasm as it streams in on the thread that reads it, 15-40 ms
// of the page's main thread for the app's 1.2 MB, in one task of over 50 ms in some loads.

const HEADERS = ['etag', 'last-modified', 'content-type', 'content-length', 'content-encoding', 'retry-after'];

/** Requests under way, by id: their AbortController. */
const running = new Map();
/** The early download until the app claims it: its URL, controller and messages so far. */
let early = null;

/** GETs `url`, telling `send` how it goes; returns its AbortController. */
function get(url, init, send) {
  const controller = new AbortController();
  (async () => {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const headers = {};
    for (const name of HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    send({ head: { status: response.status, statusText: response.statusText, headers } });
    if (response.ok && response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        send({ chunk: value }, [value.buffer]);
      }
    }
    send({ done: true });
  })().catch((error) => send({ error: String(error?.message ?? error) }));
  return controller;
}

/** What sends the messages of request `id`, forgetting it once it is over. */
const sender = (id) => (message, transfer = []) => {
  if (message.done || message.error !== undefined) running.delete(id);
  self.postMessage({ id, ...message }, transfer);
};

/** The WebAssembly module at `url`, compiled as it downloads where it is served as wasm. */
async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

self.onmessage = ({ data }) => {
  if (data.compile !== undefined) {
    compile(data.compile).then(
      (module) => self.postMessage({ compiled: module }),
      () => self.postMessage({ compiled: null }),
    );
  } else if (data.early !== undefined) {
    const held = { url: data.early, messages: [], send: null };
    held.controller = get(data.early, {}, (message, transfer = []) => {
      if (held.send) held.send(message, transfer);
      else held.messages.push([message, transfer]);
    });
    early = held;
  } else if (data.abort !== undefined) {
    running.get(data.abort)?.abort();
    running.delete(data.abort);
  } else if (data.claim && early?.url === data.url) {
    const held = early;
    early = null;
    running.set(data.id, held.controller);
    held.send = sender(data.id);
    for (const [message, transfer] of held.messages.splice(0)) held.send(message, transfer);
  } else {
    if (early?.url === data.url) {
      // Asked for anew (a retry, a conditional request): the early download is not wanted.
      early.controller.abort();
      early = null;
    }
    running.set(data.id, get(data.url, data.init ?? {}, sender(data.id)));
  }
};
