// The catalogue page in plain JavaScript, no framework: the yardstick `cargo xtask bench` holds
// the Leptos site against.
//
// It loads the same registry.json, searches and counts exactly as registry-core does — a line by
// line port of `search.rs` (words, vocabulary, exact/prefix/substring/typo tiers and their
// scores, typos only as a fallback, ties by name), `facets.rs` (disjunctive counts over five
// groups), `license.rs` (licence facet values) and `catalog.rs` — and renders what the
// catalogue page renders for a query: the count, the facet counts, and the first 48 results as
// cards with the site's markup and Tailwind classes (served with the site's own stylesheet), the
// matched parts of each text in <mark>. `measure.mjs` checks on a few queries that both pages
// show the same top ten, count and facet counts.
//
// It is written the way a careful hand-written page would be: the input handler searches and
// updates the DOM synchronously; cards and facet options are keyed, so a card that stays in the
// list is kept and only its highlights are rewritten when they change.
//
// Strings are compared by code point, which is the byte order of Rust's UTF-8 strings, so sort
// orders and tie-breaks are the same as the site's; offsets are UTF-16 rather than UTF-8 bytes,
// which changes nothing that is shown.

'use strict';

/** Cards rendered at first, and added by "Show more" (the site's `PAGE`). */
const PAGE = 48;

// ---------------------------------------------------------------------------------------------
// Text: words, folding, comparison (search.rs)

const ALNUM = /[\p{Alphabetic}\p{N}]/u;

/** Rust's `char::is_alphanumeric` for one code point given as a string. */
function isAlphanumeric(c) {
  const code = c.charCodeAt(0);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return ALNUM.test(c);
}

/** A non-ASCII character as search compares it (search.rs `fold`). */
function fold(c) {
  let out = '';
  for (const lower of c.toLowerCase()) {
    if (isAlphanumeric(lower)) out += lower === 'ς' ? 'σ' : lower;
  }
  return out;
}

/** Calls `f(start, end, word)` for each word of `text` (UTF-16 offsets, folded word). */
function forEachWord(text, f) {
  let word = '';
  let start = -1;
  let at = 0;
  for (const c of text) {
    if (isAlphanumeric(c)) {
      if (start < 0) {
        start = at;
        word = '';
      }
      const code = c.charCodeAt(0);
      if (code < 128) word += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c;
      else word += fold(c);
    } else if (start >= 0) {
      f(start, at, word);
      start = -1;
    }
    at += c.length;
  }
  if (start >= 0) f(start, text.length, word);
}

function words(text) {
  const out = [];
  forEachWord(text, (_start, _end, word) => out.push(word));
  return out;
}

/** Compares by code point (the order of Rust's `str`), not by UTF-16 unit. */
function compare(a, b) {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (astral code points) sort after the rest of the BMP.
      if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      return x - y;
    }
  }
  return a.length - b.length;
}

function charCount(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff) n++;
  }
  return n;
}

function utf8Length(s) {
  let n = 0;
  for (const c of s) {
    const code = c.codePointAt(0);
    n += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return n;
}

/** The first index in `0..len` for which `before` is false. */
function partitionPoint(len, before) {
  let low = 0;
  let high = len;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

// ---------------------------------------------------------------------------------------------
// Entries (model.rs)

/** `"Jane <jane@x.org>"` → `"Jane"` (model.rs `author_name`). */
function authorName(author) {
  const at = author.indexOf('<');
  if (at > 0 && author.trimEnd().endsWith('>')) return author.slice(0, at).trim();
  return author.trim();
}

function authorNames(entry) {
  return entry.authors.map(authorName).filter((name) => name !== '');
}

/** A package spec without its version (search.rs `package_name`). */
function packageName(spec) {
  const trimmed = spec.trim();
  let at = 0;
  for (const c of trimmed) {
    if (at > 0 && '@=<>!~[; '.includes(c)) return trimmed.slice(0, at);
    at += c.length;
  }
  return trimmed;
}

const OS = ['darwin', 'linux', 'windows'];
const ARCH = ['aarch64', 'x86_64'];
const METHODS = ['binary', 'npx', 'uvx'];
const KINDS = ['agent', 'extension'];

/** `{os, arch}` of a `distribution.binary` key, or null when it is not one of the six. */
function platform(key) {
  const dash = key.indexOf('-');
  if (dash < 0) return null;
  const os = key.slice(0, dash);
  const arch = key.slice(dash + 1);
  return OS.includes(os) && ARCH.includes(arch) ? { os, arch } : null;
}

function methodsOf(entry) {
  const d = entry.distribution;
  const out = [];
  if (Object.keys(d.binary).length > 0) out.push('binary');
  if (d.npx) out.push('npx');
  if (d.uvx) out.push('uvx');
  return out;
}

function runsOn(entry, part, value) {
  const d = entry.distribution;
  return Boolean(d.npx || d.uvx) || Object.keys(d.binary).some((k) => platform(k)?.[part] === value);
}

/** The registry's entries, agents then extensions, with absent lists and maps made empty. */
function readEntries(registry) {
  const entries = [];
  for (const [kind, list] of [['agent', registry.agents], ['extension', registry.extensions]]) {
    for (const raw of list ?? []) {
      const distribution = raw.distribution ?? {};
      entries.push({
        kind,
        id: raw.id,
        name: raw.name,
        version: raw.version,
        description: raw.description,
        authors: raw.authors ?? [],
        license: raw.license ?? null,
        icon: raw.icon ?? null,
        distribution: {
          binary: distribution.binary ?? {},
          npx: distribution.npx ?? null,
          uvx: distribution.uvx ?? null,
        },
      });
    }
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Search (search.rs)

const NAME = 0;
const ID = 1;
const DESCRIPTION = 2;
const AUTHOR = 3;
const PACKAGE = 4;

const EXACT = 0;
const PREFIX = 1;
const SUBSTRING = 2;
const TYPO = 3;

const PRIMARY = [1000, 800, 600];
const SECONDARY = [300, 250, 150];
const PRIMARY_TYPO = 100;
const SECONDARY_TYPO = 40;
const WHOLE_QUERY_EXACT = 10000;
const WHOLE_QUERY_PREFIX = 5000;
const MIN_SUBSTRING_CHARS = 3;

function maxTypos(chars) {
  return chars < 4 ? 0 : chars < 8 ? 1 : 2;
}

/** A character's bit (0–63) in a word's character set. */
function charBit(code) {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 48 && code <= 57) return 26 + code - 48;
  return 36 + (code % 28);
}

function score(kind, typos, prefix, field, position) {
  const primary = field === NAME || field === ID;
  const early = primary ? 40 - 10 * Math.min(position, 4) : 20 - 2 * Math.min(position, 10);
  if (kind === TYPO) {
    const top = primary ? PRIMARY_TYPO : SECONDARY_TYPO;
    const penalty = 10 * Math.max(typos - 1, 0) + (prefix ? 20 : 0);
    return Math.max(top - penalty, 0) + early;
  }
  return (primary ? PRIMARY : SECONDARY)[kind] + early;
}

/** Optimal-string-alignment distance from one term to words, up to a bound. */
class BoundedDistance {
  constructor(term, bound) {
    this.term = term;
    this.bound = bound;
    const width = term.length + bound + 2;
    this.rows = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  }

  /** `{typos, prefix}` when `word` (its first chars; `len` in all) matches within the bound. */
  matches(word, len, prefix) {
    const term = this.term;
    const m = term.length;
    const k = this.bound;
    const cols = Math.min(word.length, m + k);
    const whole = word.length === len && Math.abs(len - m) <= k;
    let [prev2, prev, cur] = this.rows;
    for (let j = 0; j <= cols; j++) prev[j] = j;
    let prevMin = 0;
    for (let i = 1; i <= m; i++) {
      cur[0] = i;
      let rowMin = i;
      for (let j = 1; j <= cols; j++) {
        const cost = term[i - 1] !== word[j - 1] ? 1 : 0;
        let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && term[i - 1] === word[j - 2] && term[i - 2] === word[j - 1]) {
          v = Math.min(v, prev2[j - 2] + 1);
        }
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > k && prevMin > k) return null;
      prevMin = rowMin;
      [prev2, prev, cur] = [prev, cur, prev2];
    }
    if (whole && prev[len] <= k) return { typos: prev[len], prefix: false };
    let best = prev[0];
    for (let j = 1; j <= cols; j++) best = Math.min(best, prev[j]);
    return prefix && best <= k ? { typos: best, prefix: true } : null;
  }
}

class SearchIndex {
  constructor(entries) {
    const wordIds = new Map();
    const occWord = [];
    const occEntry = [];
    const occField = [];
    const occPosition = [];
    entries.forEach((entry, e) => {
      const add = (field, text, first) => {
        let position = first;
        forEachWord(text, (_start, _end, word) => {
          let id = wordIds.get(word);
          if (id === undefined) {
            id = wordIds.size;
            wordIds.set(word, id);
          }
          occWord.push(id);
          occEntry.push(e);
          occField.push(field);
          occPosition.push(Math.min(position, 65535));
          position += 1;
        });
        return position;
      };
      add(NAME, entry.name, 0);
      add(ID, entry.id, 0);
      add(DESCRIPTION, entry.description, 0);
      let position = 0;
      for (const author of authorNames(entry)) position = add(AUTHOR, author, position);
      position = 0;
      for (const target of [entry.distribution.npx, entry.distribution.uvx]) {
        if (target) position = add(PACKAGE, packageName(target.package), position);
      }
    });

    // The vocabulary, sorted, words renumbered in that order.
    const sorted = [...wordIds.keys()].sort(compare);
    const count = sorted.length;
    const renumber = new Uint32Array(count);
    this.words = sorted;
    this.wordStarts = new Uint32Array(count + 1);
    this.wordCharLens = new Uint8Array(count);
    this.wordCharsLo = new Int32Array(count);
    this.wordCharsHi = new Int32Array(count);
    let offset = 0;
    sorted.forEach((word, w) => {
      renumber[wordIds.get(word)] = w;
      this.wordStarts[w] = offset;
      offset += word.length + 1;
      this.wordCharLens[w] = Math.min(charCount(word), 255);
      let lo = 0;
      let hi = 0;
      for (const c of word) {
        const bit = charBit(c.codePointAt(0));
        if (bit < 32) lo |= 1 << bit;
        else hi |= 1 << (bit - 32);
      }
      this.wordCharsLo[w] = lo;
      this.wordCharsHi[w] = hi;
    });
    this.wordStarts[count] = offset;
    this.vocabulary = sorted.join('\n') + '\n';

    // Postings grouped by word (a stable counting sort), first occurrence per entry and field.
    const n = occWord.length;
    const groupStarts = new Uint32Array(count + 1);
    for (let i = 0; i < n; i++) {
      occWord[i] = renumber[occWord[i]];
      groupStarts[occWord[i] + 1] += 1;
    }
    for (let w = 1; w <= count; w++) groupStarts[w] += groupStarts[w - 1];
    const order = new Uint32Array(n);
    const next = groupStarts.slice();
    for (let i = 0; i < n; i++) order[next[occWord[i]]++] = i;
    const postEntry = new Uint32Array(n);
    const postField = new Uint8Array(n);
    const postPosition = new Uint16Array(n);
    const postingStarts = new Uint32Array(count + 1);
    let kept = 0;
    for (let w = 0; w < count; w++) {
      postingStarts[w] = kept;
      let previousEntry = -1;
      let previousField = -1;
      for (let g = groupStarts[w]; g < groupStarts[w + 1]; g++) {
        const i = order[g];
        if (occEntry[i] !== previousEntry || occField[i] !== previousField) {
          postEntry[kept] = occEntry[i];
          postField[kept] = occField[i];
          postPosition[kept] = occPosition[i];
          kept += 1;
          previousEntry = occEntry[i];
          previousField = occField[i];
        }
      }
    }
    postingStarts[count] = kept;
    this.postEntry = postEntry;
    this.postField = postField;
    this.postPosition = postPosition;
    this.postingStarts = postingStarts;

    this.nameKeys = entries.map((e) => words(e.name).join(' '));
    this.idKeys = entries.map((e) => words(e.id).join(' '));
    const lowerNames = entries.map((e) => e.name.toLowerCase());
    this.byName = entries.map((_, i) => i);
    this.byName.sort(
      (a, b) => compare(lowerNames[a], lowerNames[b]) || compare(entries[a].id, entries[b].id) || a - b,
    );
    this.nameRanks = new Uint32Array(entries.length);
    this.byName.forEach((entry, rank) => {
      this.nameRanks[entry] = rank;
    });
  }

  get length() {
    return this.nameRanks.length;
  }

  /** `{hits: [{entry, score}], terms, typoWords}`, best first, ties in name order. */
  search(query) {
    const terms = words(query);
    if (terms.length === 0) {
      return new Matches(this.byName.map((entry) => ({ entry, score: 0 })), terms, new Set());
    }
    let scoring = this.scoreTerms(terms, false);
    if (scoring.totals.every((t) => t === 0)) scoring = this.scoreTerms(terms, true);
    const key = terms.join(' ');
    const hits = [];
    scoring.totals.forEach((total, entry) => {
      if (total > 0) hits.push({ entry, score: total + this.wholeQueryBonus(entry, key) });
    });
    hits.sort((a, b) => b.score - a.score || this.nameRanks[a.entry] - this.nameRanks[b.entry]);
    const typoWords = new Set([...scoring.typoWords].map((w) => this.words[w]));
    return new Matches(hits, terms, typoWords);
  }

  scoreTerms(terms, typos) {
    const n = this.length;
    const totals = new Uint32Array(n);
    const best = new Uint32Array(n);
    const typoWords = new Set();
    for (let i = 0; i < terms.length; i++) {
      const last = i + 1 === terms.length;
      best.fill(0);
      for (const match of this.matchTerm(terms[i], typos, last)) {
        if (match.kind === TYPO) typoWords.add(match.w);
        for (let p = this.postingStarts[match.w]; p < this.postingStarts[match.w + 1]; p++) {
          const s = score(match.kind, match.typos, match.prefix, this.postField[p], this.postPosition[p]);
          const entry = this.postEntry[p];
          if (s > best[entry]) best[entry] = s;
        }
      }
      let any = false;
      for (let e = 0; e < n; e++) {
        totals[e] = i === 0 || (totals[e] > 0 && best[e] > 0) ? totals[e] + best[e] : 0;
        if (totals[e] > 0) any = true;
      }
      if (!any) break;
    }
    return { totals, typoWords };
  }

  /** The vocabulary words `term` matches: `[{w, kind, typos, prefix}]`. */
  matchTerm(term, typos, last) {
    const out = [];
    const words = this.words;
    const count = words.length;
    const first = partitionPoint(count, (w) => compare(words[w], term) < 0);
    let after = first;
    while (after < count && words[after].startsWith(term)) {
      out.push({ w: after, kind: words[after] === term ? EXACT : PREFIX, typos: 0, prefix: false });
      after += 1;
    }
    const prefixed = (w) => w >= first && w < after;

    const termLen = charCount(term);
    const contained = [];
    if (termLen >= MIN_SUBSTRING_CHARS) {
      let at = this.vocabulary.indexOf(term);
      while (at >= 0) {
        const w = partitionPoint(count + 1, (i) => this.wordStarts[i] <= at) - 1;
        if (contained[contained.length - 1] !== w && !prefixed(w)) contained.push(w);
        at = this.vocabulary.indexOf(term, at + term.length);
      }
      for (const w of contained) out.push({ w, kind: SUBSTRING, typos: 0, prefix: false });
    }

    const bound = maxTypos(termLen);
    if (typos && bound > 0) {
      const chars = [...term];
      const bits = chars.map((c) => charBit(c.codePointAt(0)));
      const distance = new BoundedDistance(chars, bound);
      const isContained = (w) => {
        const at = partitionPoint(contained.length, (i) => contained[i] < w);
        return at < contained.length && contained[at] === w;
      };
      for (let w = 0; w < count; w++) {
        const lo = this.wordCharsLo[w];
        const hi = this.wordCharsHi[w];
        let missing = 0;
        for (const bit of bits) {
          if ((bit < 32 ? lo & (1 << bit) : hi & (1 << (bit - 32))) === 0) missing += 1;
        }
        const len = this.wordCharLens[w];
        const wholePossible = Math.abs(len - termLen) <= bound;
        const prefixPossible = last && len + bound >= termLen;
        if (missing > bound || !(wholePossible || prefixPossible) || prefixed(w) || isContained(w)) {
          continue;
        }
        const word = [...words[w]].slice(0, termLen + bound + 1);
        const found = distance.matches(word, len, last);
        if (found) out.push({ w, kind: TYPO, typos: found.typos, prefix: found.prefix });
      }
    }
    return out;
  }

  wholeQueryBonus(entry, key) {
    const name = this.nameKeys[entry];
    const id = this.idKeys[entry];
    if (name === key || id === key) return WHOLE_QUERY_EXACT;
    if (name.startsWith(key) || id.startsWith(key)) return WHOLE_QUERY_PREFIX;
    return 0;
  }
}

/** A search's hits and what is needed to highlight why they matched. */
class Matches {
  constructor(hits, terms, typoWords) {
    this.hits = hits;
    this.terms = terms;
    this.typoWords = typoWords;
    this.termBytes = terms.map(utf8Length);
    this.termChars = terms.map(charCount);
  }

  /** `[start, end]` UTF-16 ranges of `text` to mark, sorted and disjoint. */
  highlight(text) {
    if (this.terms.length === 0) return [];
    const out = [];
    forEachWord(text, (start, end, word) => {
      let part = this.termPart(word);
      if (!part && this.typoWords.has(word)) part = [0, word.length];
      if (part) out.push(originalRange(text.slice(start, end), start, part));
    });
    return out;
  }

  termPart(word) {
    let best = null;
    let bestBytes = 0;
    this.terms.forEach((term, i) => {
      let at = -1;
      if (word.startsWith(term)) at = 0;
      else if (this.termChars[i] >= MIN_SUBSTRING_CHARS) at = word.indexOf(term);
      if (at >= 0 && (best === null || bestBytes < this.termBytes[i])) {
        best = [at, at + term.length];
        bestBytes = this.termBytes[i];
      }
    });
    return best;
  }
}

/** Maps a range of the folded `word` back to `word`, which starts at `base` in its text. */
function originalRange(word, base, [lowerStart, lowerEnd]) {
  let lowerAt = 0;
  let start = -1;
  let end = word.length;
  let at = 0;
  for (const c of word) {
    const next = lowerAt + (c.charCodeAt(0) < 128 ? 1 : fold(c).length);
    if (start < 0 && next > lowerStart) start = at;
    if (next >= lowerEnd) {
      end = at + c.length;
      break;
    }
    lowerAt = next;
    at += c.length;
  }
  return [base + Math.max(start, 0), base + end];
}

// ---------------------------------------------------------------------------------------------
// Licences (license.rs)

const NOT_SPECIFIED = 'Not specified';

const CANONICAL = [
  ['Proprietary', ['unlicensed', 'all rights reserved']],
  ['Apache-2.0', ['apache2', 'apache v2', 'asl 2.0', 'apache software 2.0']],
  ['MIT', ['expat', 'mit licence']],
  ['MIT-0', []],
  ['ISC', []],
  ['0BSD', []],
  ['BSD-2-Clause', ['bsd 2', 'simplified bsd']],
  ['BSD-3-Clause', ['bsd 3', 'new bsd', 'modified bsd', 'revised bsd']],
  ['MPL-2.0', ['mpl 2', 'mozilla public 2.0']],
  ['Unlicense', ['the unlicense']],
  ['CC0-1.0', ['cc0', 'cc0 1']],
  ['CC-BY-4.0', []],
  ['CC-BY-SA-4.0', []],
  ['CC-BY-NC-4.0', []],
  ['CC-BY-NC-SA-4.0', []],
  ['CC-BY-NC-ND-4.0', []],
  ['BUSL-1.1', ['business source 1.1', 'bsl 1.1']],
  ['BSL-1.0', ['boost software 1.0', 'boost 1.0']],
  ['Elastic-2.0', ['elastic 2', 'elv2']],
  ['SSPL-1.0', ['server side public 1.0']],
  ['EPL-1.0', []],
  ['EPL-2.0', ['eclipse public 2.0']],
  ['EUPL-1.2', []],
  ['Artistic-2.0', []],
  ['Zlib', []],
  ['WTFPL', []],
  ['UPL-1.0', []],
  ['MS-PL', []],
  ['NCSA', []],
  ['OFL-1.1', []],
  ['Python-2.0', []],
  ['PostgreSQL', []],
  ['CDDL-1.0', []],
  ['BlueOak-1.0.0', []],
  ['PolyForm-Noncommercial-1.0.0', []],
  ['PolyForm-Shield-1.0.0', []],
  ['FSL-1.1-MIT', []],
  ['FSL-1.1-ALv2', []],
];

/** The loose key spellings are compared by. */
function squash(license) {
  const FILLER = ['license', 'licence', 'version', 'the'];
  const joined = license
    .toLowerCase()
    .split(/[^\p{Alphabetic}\p{N}.+]/u)
    .filter((word) => !FILLER.includes(word))
    .join('');
  const chars = [...joined].filter((c) => c !== '.');
  let key = '';
  chars.forEach((c, i) => {
    const beforeDigit = i + 1 < chars.length && chars[i + 1] >= '0' && chars[i + 1] <= '9';
    if (!(c === 'v' && beforeDigit)) key += c;
  });
  return key;
}

const KNOWN = new Map(
  CANONICAL.flatMap(([canonical, aliases]) =>
    [canonical, ...aliases].map((spelling) => [squash(spelling), canonical]),
  ),
);

/** The GNU GPL, LGPL and AGPL by any common spelling, as explicit SPDX ids. */
function gnu(key) {
  const FAMILIES = [
    ['agpl', 'AGPL'],
    ['afferogpl', 'AGPL'],
    ['afferogeneralpublic', 'AGPL'],
    ['lgpl', 'LGPL'],
    ['lessergeneralpublic', 'LGPL'],
    ['librarygeneralpublic', 'LGPL'],
    ['gpl', 'GPL'],
    ['generalpublic', 'GPL'],
  ];
  const rest0 = key.startsWith('gnu') ? key.slice(3) : key;
  const found = FAMILIES.find(([prefix]) => rest0.startsWith(prefix));
  if (!found) return null;
  const [prefix, family] = found;
  const rest = rest0.slice(prefix.length);
  const number = /^[0-9]*/.exec(rest)[0];
  const suffix = rest.slice(number.length);
  let version;
  if ((family === 'GPL' || family === 'LGPL') && (number === '2' || number === '20')) version = '2.0';
  else if (family === 'LGPL' && number === '21') version = '2.1';
  else if (number === '3' || number === '30') version = '3.0';
  else return null;
  let scope;
  if (suffix === '' || suffix === 'only') scope = 'only';
  else if (suffix === '+' || suffix === 'orlater' || suffix === 'oranylater') scope = 'or-later';
  else return null;
  return `${family}-${version}-${scope}`;
}

function licenseFacetValue(license) {
  const trimmed = license?.trim() ?? '';
  if (trimmed === '') return NOT_SPECIFIED;
  const key = squash(trimmed);
  return gnu(key) ?? KNOWN.get(key) ?? trimmed;
}

// ---------------------------------------------------------------------------------------------
// Facets (facets.rs)

const GROUPS = ['kind', 'dist', 'os', 'arch', 'license'];

function mask(values, has) {
  return values.reduce((m, v, i) => (has(v) ? m | (1 << i) : m), 0);
}

class FacetIndex {
  constructor(entries) {
    const values = entries.map((e) => licenseFacetValue(e.license));
    this.licenses = [...new Set(values)].sort(compare);
    const ids = new Map(this.licenses.map((l, i) => [l, i]));
    this.licenseIds = Uint32Array.from(values, (v) => ids.get(v));
    this.kinds = Uint8Array.from(entries, (e) => 1 << KINDS.indexOf(e.kind));
    this.methods = Uint8Array.from(entries, (e) => {
      const methods = methodsOf(e);
      return mask(METHODS, (m) => methods.includes(m));
    });
    this.os = Uint8Array.from(entries, (e) => mask(OS, (o) => runsOn(e, 'os', o)));
    this.arch = Uint8Array.from(entries, (e) => mask(ARCH, (a) => runsOn(e, 'arch', a)));
  }

  /** `[results, counts]`: the candidates passing `filters`, in order, and disjunctive counts. */
  filter(candidates, filters) {
    const selected = {
      kind: mask(KINDS, (k) => filters.kind.has(k)),
      dist: mask(METHODS, (m) => filters.dist.has(m)),
      os: mask(OS, (o) => filters.os.has(o)),
      arch: mask(ARCH, (a) => filters.arch.has(a)),
      license: filters.license.size > 0 ? this.licenses.map((l) => filters.license.has(l)) : null,
    };
    const tally = {
      kind: new Array(KINDS.length).fill(0),
      dist: new Array(METHODS.length).fill(0),
      os: new Array(OS.length).fill(0),
      arch: new Array(ARCH.length).fill(0),
      license: new Array(this.licenses.length).fill(0),
    };
    const addBits = (counts, bits) => {
      for (let i = 0; i < counts.length; i++) counts[i] += (bits >> i) & 1;
    };
    const add = (group, e) => {
      if (group === 0) addBits(tally.kind, this.kinds[e]);
      else if (group === 1) addBits(tally.dist, this.methods[e]);
      else if (group === 2) addBits(tally.os, this.os[e]);
      else if (group === 3) addBits(tally.arch, this.arch[e]);
      else tally.license[this.licenseIds[e]] += 1;
    };
    const passes = (sel, has) => sel === 0 || (sel & has) !== 0;
    const results = [];
    for (const e of candidates) {
      const pass = [
        passes(selected.kind, this.kinds[e]),
        passes(selected.dist, this.methods[e]),
        passes(selected.os, this.os[e]),
        passes(selected.arch, this.arch[e]),
        selected.license === null || selected.license[this.licenseIds[e]],
      ];
      let failed = -1;
      let failures = 0;
      for (let g = 0; g < 5; g++) {
        if (!pass[g]) {
          failures += 1;
          failed = g;
        }
      }
      if (failures === 0) {
        results.push(e);
        for (let g = 0; g < 5; g++) add(g, e);
      } else if (failures === 1) {
        add(failed, e);
      }
    }
    const licenses = [];
    this.licenses.forEach((l, i) => {
      if (tally.license[i] > 0 || filters.license.has(l)) licenses.push([l, tally.license[i]]);
    });
    for (const l of filters.license) {
      if (!licenses.some(([x]) => x === l)) licenses.push([l, 0]);
    }
    licenses.sort(
      ([a, m], [b, n]) => n - m || compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b),
    );
    const counts = {
      kind: KINDS.map((k, i) => [k, tally.kind[i]]),
      dist: METHODS.map((m, i) => [m, tally.dist[i]]),
      os: OS.map((o, i) => [o, tally.os[i]]),
      arch: ARCH.map((a, i) => [a, tally.arch[i]]),
      license: licenses,
    };
    return [results, counts];
  }
}

// ---------------------------------------------------------------------------------------------
// Catalogue (catalog.rs) and state in the URL (query.rs, only what this page uses)

function emptyFilters() {
  return Object.fromEntries(GROUPS.map((g) => [g, new Set()]));
}

function readState(search) {
  const params = new URLSearchParams(search);
  const filters = emptyFilters();
  for (const group of ['kind', 'dist', 'os', 'arch']) {
    for (const value of params.getAll(group)) {
      for (const word of value.split(',')) filters[group].add(word.trim().toLowerCase());
    }
  }
  for (const license of params.getAll('license')) if (license.trim()) filters.license.add(license.trim());
  return { q: params.get('q') ?? '', filters, sort: params.get('sort') === 'name' ? 'name' : 'relevance' };
}

function writeState(state) {
  const params = new URLSearchParams();
  if (state.q) params.append('q', state.q);
  for (const group of GROUPS) for (const value of [...state.filters[group]].sort(compare)) params.append(group, value);
  if (state.sort === 'name') params.append('sort', 'name');
  const qs = params.toString();
  return qs ? `?${qs}` : location.pathname;
}

class Catalog {
  constructor(entries) {
    this.entries = entries;
    this.index = new SearchIndex(entries);
    this.facets = new FacetIndex(entries);
  }

  view(state) {
    const matches = this.index.search(state.q);
    const [results, counts] = this.facets.filter(
      matches.hits.map((h) => h.entry),
      state.filters,
    );
    if (state.sort === 'name') results.sort((a, b) => this.index.nameRanks[a] - this.index.nameRanks[b]);
    return { results, counts, matches };
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering (the catalogue page, card.rs, icon.rs, highlight.rs, facets.rs components)

const FACET_LABELS = {
  kind: { legend: 'Kind', labels: { agent: 'Agent', extension: 'Extension' } },
  dist: {
    legend: 'Distribution',
    labels: { binary: 'Binary download', npx: 'npx (Node.js)', uvx: 'uvx (Python)' },
  },
  os: { legend: 'Operating system', labels: { darwin: 'macOS', linux: 'Linux', windows: 'Windows' } },
  arch: { legend: 'Architecture', labels: { aarch64: 'ARM64', x86_64: 'x86-64' } },
  license: { legend: 'License', labels: {} },
};
const COLLAPSED = 8;
const OS_LABELS = { darwin: 'macOS', linux: 'Linux', windows: 'Windows' };
const BADGE = {
  binary: 'bg-sky-100 text-sky-900 dark:bg-sky-900/50 dark:text-sky-100',
  npx: 'bg-rose-100 text-rose-900 dark:bg-rose-900/50 dark:text-rose-100',
  uvx: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100',
};
const MARK_CLASS = 'rounded-sm bg-amber-200 text-slate-950 dark:bg-amber-500/40 dark:text-white';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Replaces `container`'s content with `prefix` and `text`, the `ranges` in <mark>. */
function renderHighlighted(container, prefix, text, ranges) {
  const nodes = prefix ? [prefix] : [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || start >= end || end > text.length) continue;
    if (start > at) nodes.push(text.slice(at, start));
    nodes.push(el('mark', MARK_CLASS, text.slice(start, end)));
    at = end;
  }
  if (at < text.length) nodes.push(text.slice(at));
  container.replaceChildren(...nodes);
}

function monogram(name) {
  const c = [...name].find(isAlphanumeric);
  return c ? c.toUpperCase() : '?';
}

function iconUrl(entry, registryUrl) {
  if (!entry.icon) return null;
  try {
    const url = new URL(entry.icon, registryUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The icon box: a hidden probe <img>, then the mask once it loads or the monogram if it fails. */
function icon(entry, registryUrl) {
  const box = el('span', 'relative inline-flex shrink-0 items-center justify-center rounded-lg h-10 w-10 text-lg');
  box.setAttribute('aria-hidden', 'true');
  const url = iconUrl(entry, registryUrl);
  const showMonogram = () =>
    box.append(
      el(
        'span',
        'flex h-full w-full items-center justify-center rounded-lg border border-slate-300 font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300',
        monogram(entry.name),
      ),
    );
  if (!url) {
    showMonogram();
    return box;
  }
  const probe = el('img', 'hidden');
  probe.crossOrigin = 'anonymous';
  probe.alt = '';
  probe.onload = () => {
    const mask = el('span', 'icon-mask h-full w-full');
    mask.style.setProperty('--icon', `url("${url}")`);
    box.append(mask);
  };
  probe.onerror = showMonogram;
  probe.src = url;
  box.append(probe);
  return box;
}

function platformsLabel(entry) {
  const d = entry.distribution;
  if (Object.keys(d.binary).length === 0 || d.npx || d.uvx) return null;
  const oses = OS.filter((o) => runsOn(entry, 'os', o)).map((o) => OS_LABELS[o]);
  return oses.length ? oses.join(' · ') : null;
}

/** A result card and the three texts it highlights. */
function createCard(entry, registryUrl) {
  const li = el(
    'li',
    'group relative flex gap-4 rounded-xl border border-slate-200 bg-white p-4 [content-visibility:auto] [contain-intrinsic-size:auto_9rem] transition-[border-color,box-shadow] hover:border-indigo-400 hover:shadow-sm focus-within:ring-2 focus-within:ring-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-500',
  );
  const body = el('div', 'min-w-0 flex-1');
  const head = el('div', 'flex flex-wrap items-baseline gap-x-2');
  const h2 = el('h2', 'text-base font-semibold');
  const link = el('a', 'outline-none after:absolute after:inset-0 after:rounded-xl');
  link.href = `${entry.kind === 'agent' ? 'agents' : 'extensions'}/${entry.id}`;
  h2.append(link);
  head.append(h2, el('span', 'text-xs text-slate-500 dark:text-slate-400', `v${entry.version}`));
  const description = el('p', 'mt-1 line-clamp-2 text-sm text-slate-700 dark:text-slate-300');
  body.append(head, description);
  const authors = authorNames(entry).join(', ');
  let authorsLine = null;
  if (authors) {
    authorsLine = el('p', 'mt-1 truncate text-xs text-slate-500 dark:text-slate-400');
    body.append(authorsLine);
  }
  const badges = el('ul', 'mt-2 flex flex-wrap gap-1.5');
  badges.setAttribute('aria-label', 'Distribution');
  for (const method of methodsOf(entry)) {
    const item = el('li');
    item.append(el('span', `inline-block rounded px-1.5 text-xs font-medium leading-5 ${BADGE[method]}`, method));
    badges.append(item);
  }
  const platforms = platformsLabel(entry);
  if (platforms) badges.append(el('li', 'text-xs leading-5 text-slate-500 dark:text-slate-400', platforms));
  body.append(badges);
  li.append(icon(entry, registryUrl), body);
  return { node: li, entry, authors, link, description, authorsLine, marks: null };
}

/** How many characters of a description a card holds (`CARD_DESCRIPTION_CHARS`, src/components/card.rs). */
const CARD_DESCRIPTION_CHARS = 280;

/**
 * `text` cut as the site's cards cut it (`shorten`, src/components/card.rs): to at most `max`
 * characters, at the last white space in its last fifth when there is one, with `…` when
 * anything was cut.
 */
function shorten(text, max = CARD_DESCRIPTION_CHARS) {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max);
  let at = head.length - 1;
  while (at >= 0 && !/\s/u.test(head[at])) at--;
  const kept = at >= max - Math.floor(max / 5) ? head.slice(0, at) : head;
  return `${kept.join('').trimEnd()}…`;
}

/** Rewrites a card's highlights when they differ from what it shows. */
function updateCard(card, matches) {
  const { entry } = card;
  const description = shorten(entry.description);
  const ranges = [
    matches.highlight(entry.name),
    matches.highlight(description),
    card.authors ? matches.highlight(card.authors) : [],
  ];
  const marks = JSON.stringify(ranges);
  if (marks === card.marks) return;
  card.marks = marks;
  renderHighlighted(card.link, null, entry.name, ranges[0]);
  renderHighlighted(card.description, null, description, ranges[1]);
  if (card.authorsLine) renderHighlighted(card.authorsLine, 'by ', card.authors, ranges[2]);
}

/**
 * Makes `parent`'s children the nodes of `items`, in order: nodes are kept by key in `cache`,
 * made by `create` for new keys and removed for keys no longer listed.
 */
function reconcile(parent, items, cache, keyOf, create, update) {
  const seen = new Set();
  let i = 0;
  for (const item of items) {
    const key = keyOf(item);
    seen.add(key);
    let held = cache.get(key);
    if (!held) {
      held = create(item);
      cache.set(key, held);
    }
    update(held, item);
    const current = parent.children[i] ?? null;
    if (current !== held.node) parent.insertBefore(held.node, current);
    i += 1;
  }
  for (const [key, held] of cache) {
    if (!seen.has(key)) {
      held.node.remove();
      cache.delete(key);
    }
  }
}

/** Slug of an option key for element ids (facets.rs `slug`). */
function slug(key) {
  let out = '';
  for (const c of key) out += /^[A-Za-z0-9]$/.test(c) ? c : `_${c.codePointAt(0).toString(16)}`;
  return out;
}

class Page {
  constructor(catalog, registryUrl) {
    this.catalog = catalog;
    this.registryUrl = registryUrl;
    this.state = readState(location.search);
    this.limit = PAGE;
    this.cards = new Map();
    this.options = Object.fromEntries(GROUPS.map((g) => [g, new Map()]));
    this.expanded = Object.fromEntries(GROUPS.map((g) => [g, false]));
    this.anyExtension = catalog.entries.some((e) => e.kind === 'extension');

    this.input = document.getElementById('search');
    this.status = document.querySelector('section[aria-label=Results] [role=status]');
    this.list = document.getElementById('results');
    this.empty = document.getElementById('empty');
    this.emptyMessage = document.getElementById('empty-message');
    this.more = document.getElementById('more');
    this.clearFilters = document.getElementById('clear-filters');
    this.sort = document.getElementById('sort');
    this.facets = document.getElementById('facets');
    this.fieldsets = Object.fromEntries(GROUPS.map((g) => [g, this.createFieldset(g)]));

    this.input.value = this.state.q;
    this.sort.value = this.state.sort;
    this.input.addEventListener('input', () => {
      this.state.q = this.input.value;
      this.limit = PAGE;
      this.commit();
    });
    this.sort.addEventListener('change', () => {
      this.state.sort = this.sort.value === 'name' ? 'name' : 'relevance';
      this.commit();
    });
    this.more.addEventListener('click', () => {
      this.limit += PAGE;
      this.render();
    });
    this.clearFilters.addEventListener('click', () => {
      this.state.filters = emptyFilters();
      this.commit();
    });
    document.getElementById('empty-clear').addEventListener('click', () => {
      this.state = { q: '', filters: emptyFilters(), sort: 'relevance' };
      this.input.value = '';
      this.sort.value = 'relevance';
      this.commit();
    });
  }

  /** Writes the state to the URL and renders it. */
  commit() {
    history.replaceState(null, '', writeState(this.state));
    this.render();
  }

  render() {
    const { state } = this;
    const view = this.catalog.view(state);
    const q = state.q.trim();
    document.title = q ? `“${q}” · ACP Agent Registry` : 'ACP Agent Registry';
    const n = view.results.length;
    const noun = this.anyExtension ? (n === 1 ? 'result' : 'results') : n === 1 ? 'agent' : 'agents';
    this.status.textContent = `${n} ${noun}`;
    const filtered = GROUPS.some((g) => state.filters[g].size > 0);
    this.clearFilters.hidden = !filtered;
    for (const group of GROUPS) this.renderFieldset(group, view.counts[group]);

    const visible = view.results.slice(0, this.limit);
    reconcile(
      this.list,
      visible,
      this.cards,
      (e) => e,
      (e) => createCard(this.catalog.entries[e], this.registryUrl),
      (card) => updateCard(card, view.matches),
    );
    this.list.hidden = n === 0;
    this.empty.hidden = n > 0;
    if (n === 0) {
      this.emptyMessage.textContent =
        q && !filtered
          ? `No agents match “${q}”.`
          : q
            ? `No agents match “${q}” with these filters.`
            : 'No agents match these filters.';
    }
    this.more.hidden = this.limit >= n;
    this.more.textContent = `Show more (${Math.max(n - this.limit, 0)} remaining)`;
  }

  createFieldset(group) {
    const fieldset = el('fieldset', 'border-t border-slate-200 py-3 first:border-t-0 dark:border-slate-800');
    const list = el('ul', 'clear-left space-y-1');
    const toggle = el('button', 'mt-1 text-sm text-indigo-700 underline hover:no-underline dark:text-indigo-300');
    toggle.type = 'button';
    toggle.addEventListener('click', () => {
      this.expanded[group] = !this.expanded[group];
      this.render();
    });
    fieldset.append(el('legend', 'float-left mb-2 w-full text-sm font-semibold', FACET_LABELS[group].legend), list, toggle);
    this.facets.append(fieldset);
    return { list, toggle };
  }

  renderFieldset(group, counts) {
    const { list, toggle } = this.fieldsets[group];
    const selected = this.state.filters[group];
    const visible = counts.filter(([key], i) => this.expanded[group] || i < COLLAPSED || selected.has(key));
    reconcile(
      list,
      visible,
      this.options[group],
      ([key]) => key,
      ([key]) => this.createOption(group, key),
      (option, [key, count]) => {
        const checked = selected.has(key);
        option.input.checked = checked;
        option.label.classList.toggle('text-slate-400', count === 0 && !checked);
        const text = String(count);
        if (option.count.textContent !== text) option.count.textContent = text;
      },
    );
    toggle.hidden = counts.length <= COLLAPSED;
    toggle.setAttribute('aria-expanded', String(this.expanded[group]));
    toggle.textContent = this.expanded[group] ? 'Show fewer' : `Show all ${counts.length}`;
  }

  createOption(group, key) {
    const id = `facet-${group}-${slug(key)}`;
    const li = el('li', 'flex items-center gap-2 text-sm');
    const input = el('input', 'h-4 w-4 rounded border-slate-300 accent-indigo-600');
    input.type = 'checkbox';
    input.id = id;
    input.addEventListener('change', () => {
      const set = this.state.filters[group];
      if (!set.delete(key)) set.add(key);
      this.commit();
    });
    const label = el('label', 'flex flex-1 cursor-pointer justify-between gap-2');
    label.htmlFor = id;
    const count = el('span', 'tabular-nums text-slate-500 dark:text-slate-400');
    label.append(el('span', 'truncate', FACET_LABELS[group].labels[key] ?? key), count);
    li.append(input, label);
    return { node: li, input, label, count };
  }
}

async function main() {
  const registryUrl = new URL('registry.json', document.baseURI).href;
  const response = await fetch(registryUrl);
  const text = await response.text();
  // The site's User Timing measures, so the bench reads every page alike.
  performance.mark('acp:parse-start');
  const entries = readEntries(JSON.parse(text));
  performance.mark('acp:parsed');
  const catalog = new Catalog(entries);
  performance.mark('acp:indexed');
  performance.measure('acp:parse', 'acp:parse-start', 'acp:parsed');
  performance.measure('acp:parse+index', 'acp:parse-start', 'acp:indexed');
  const page = new Page(catalog, registryUrl);
  page.render();
  document.getElementById('loading').hidden = true;
  document.getElementById('browser').hidden = false;
}

main();
