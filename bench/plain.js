// The plainest honest catalogue: the page a person would write instead of the site, and the
// reference `cargo xtask bench` holds the site against.
//
// Plain JavaScript, no framework, no index: it fetches registry.json, reads it with JSON.parse,
// keeps each entry's name and the rest of its searchable text (id, description, authors) in
// lower case, and on every keystroke scans all of them for the query as a case-insensitive
// substring, entries whose name matches first, each group in registry order. It renders the
// count and the first 50 results as the site's cards (same markup and classes, served with the
// site's stylesheet), built afresh each time, without highlights, facets or counts per filter.
// The query is kept in the address (`?q=`), as on the site.
//
// It records the same User Timing measures as the site, `acp:parse` (JSON.parse and reading the
// entries) and `acp:parse+index` (and the lower-cased texts), so the bench reads both alike.

'use strict';

/** Results rendered. */
const SHOWN = 50;

const BADGE = {
  binary: 'bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100',
  npx: 'bg-rose-100 text-rose-900 dark:bg-rose-900/50 dark:text-rose-100',
  uvx: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100',
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The registry's entries, agents then extensions, each with the texts searched. */
function readEntries(registry) {
  const entries = [];
  for (const [kind, list] of [['agent', registry.agents], ['extension', registry.extensions]]) {
    for (const entry of list ?? []) {
      const authors = (entry.authors ?? []).join(', ');
      entries.push({ kind, entry, authors });
    }
  }
  return entries;
}

/** `entries` with the lower-cased texts a query is looked for in. */
function searchable(entries) {
  return entries.map((item) => ({
    ...item,
    name: String(item.entry.name ?? '').toLowerCase(),
    rest: [item.entry.id, item.entry.description, item.authors].join('\n').toLowerCase(),
  }));
}

/** Entries whose name contains `query` (any case), then those whose other texts do. */
function search(entries, query) {
  const q = query.trim().toLowerCase();
  if (!q) return entries;
  const byName = [];
  const byRest = [];
  for (const item of entries) {
    if (item.name.includes(q)) byName.push(item);
    else if (item.rest.includes(q)) byRest.push(item);
  }
  return byName.concat(byRest);
}

/** The icon, as a mask in the text colour (the site's `icon-mask`), when it is an http(s) URL. */
function icon(entry, registryUrl) {
  const box = el('span', 'relative inline-flex shrink-0 items-center justify-center rounded-lg h-10 w-10 text-lg');
  box.setAttribute('aria-hidden', 'true');
  let url = null;
  try {
    url = entry.icon ? new URL(entry.icon, registryUrl) : null;
  } catch {
    url = null;
  }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) {
    const mask = el('span', 'icon-mask h-full w-full');
    mask.style.setProperty('--icon', `url("${url.href}")`);
    box.append(mask);
  }
  return box;
}

function card({ kind, entry, authors }, registryUrl) {
  const li = el(
    'li',
    'group relative flex gap-4 rounded-xl border border-slate-200 bg-white p-4 transition-[border-color,box-shadow] hover:border-indigo-400 hover:shadow-sm focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500',
  );
  const body = el('div', 'min-w-0 flex-1');
  const head = el('div', 'flex flex-wrap items-baseline gap-x-2');
  const h2 = el('h2', 'text-base font-semibold');
  const link = el('a', 'outline-none after:absolute after:inset-0 after:rounded-xl', entry.name);
  link.href = `${kind === 'agent' ? 'agents' : 'extensions'}/${encodeURIComponent(entry.id)}/`;
  h2.append(link);
  head.append(h2, el('span', 'text-xs text-slate-500 dark:text-slate-400', `v${entry.version}`));
  body.append(head, el('p', 'mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300', entry.description));
  if (authors) body.append(el('p', 'mt-1 truncate text-xs text-slate-500 dark:text-slate-400', `by ${authors}`));
  const badges = el('ul', 'mt-2 flex flex-wrap gap-1.5');
  badges.setAttribute('aria-label', 'Distribution');
  const distribution = entry.distribution ?? {};
  for (const method of ['binary', 'npx', 'uvx']) {
    if (!distribution[method]) continue;
    const item = el('li');
    item.append(el('span', `inline-block rounded px-1.5 text-xs font-medium leading-5 ${BADGE[method]}`, method));
    badges.append(item);
  }
  body.append(badges);
  li.append(icon(entry, registryUrl), body);
  return li;
}

function render(entries, query, registryUrl) {
  const results = search(entries, query);
  const n = results.length;
  document.querySelector('section[aria-label=Results] [role=status]').textContent =
    n === 0 && query.trim() ? `No agents match “${query.trim()}”.` : `${n} ${n === 1 ? 'agent' : 'agents'}`;
  document.getElementById('results').replaceChildren(...results.slice(0, SHOWN).map((item) => card(item, registryUrl)));
}

async function main() {
  const registryUrl = new URL('registry.json', document.baseURI).href;
  const text = await (await fetch(registryUrl)).text();
  performance.mark('acp:parse-start');
  const entries = readEntries(JSON.parse(text));
  performance.mark('acp:parsed');
  const ready = searchable(entries);
  performance.mark('acp:indexed');
  performance.measure('acp:parse', 'acp:parse-start', 'acp:parsed');
  performance.measure('acp:parse+index', 'acp:parse-start', 'acp:indexed');

  const box = document.getElementById('search');
  // What was typed while the registry loaded counts; else the address's query.
  if (!box.value) box.value = new URLSearchParams(location.search).get('q') ?? '';
  box.addEventListener('input', () => {
    const url = new URL(location.href);
    if (box.value) url.searchParams.set('q', box.value);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
    render(ready, box.value, registryUrl);
  });
  render(ready, box.value, registryUrl);
}

main();
