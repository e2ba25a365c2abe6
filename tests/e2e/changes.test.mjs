// What changed: the change log the build wrote from the registry's real history (data/history)
// and the bundled registry. /changes/ reads without JavaScript, filters by kind and by agent in
// the app, each agent page has its History, and the Atom feeds are found from the pages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { launch, live, siteUrl } from './helpers.mjs';

const lines = (page) => page.getByRole('list', { name: 'Changes, newest first' }).locator('li[id]');
const status = (page) => page.getByRole('status').filter({ hasText: /changes?$|No change matches/ });

/** The number in "422 changes". */
async function count(page) {
  const text = await status(page).textContent();
  return Number(text.match(/^(\d+) change/)?.[1] ?? NaN);
}

describe('what changed', () => {
  test('/changes/ reads without JavaScript, each line linking to its agent, and names its feeds', async () => {
    const { context, page } = await launch({ javaScriptEnabled: false });
    try {
      await page.goto(siteUrl('changes/'));
      await page.getByRole('heading', { level: 1, name: 'What changed' }).waitFor();
      assert.equal(await page.title(), 'What changed · ACP Agent Registry');
      const day = page.getByRole('heading', { level: 3, name: '2026-01-20' });
      await day.waitFor();
      const line = lines(page).filter({ hasText: '0.24.4 → 0.24.5' });
      assert.equal(await line.count(), 1);
      assert.equal(await line.getByRole('link').textContent(), 'Gemini CLI');
      assert.match(await line.textContent(), /New versions/);
      // Found in that day's snapshot: the day heads it, and the line names no other.
      assert.doesNotMatch(await line.textContent(), /snapshot/);
      assert.equal(new URL(await line.getByRole('link').getAttribute('href'), page.url()).pathname, '/agents/gemini/');
      await page.getByText("From the registry's snapshots 2025-12-19 to 2026-08-20").waitFor();
      const feeds = await page.locator('head link[rel="alternate"][type="application/atom+xml"]').evaluateAll(
        (links) => links.map((l) => [l.title, new URL(l.href).pathname]),
      );
      assert.deepEqual(feeds, [['All changes', '/changes.xml'], ['New agents', '/new-agents.xml']]);
      // The page names the feed and it is one.
      const href = await page.getByRole('link', { name: 'all changes' }).getAttribute('href');
      const feed = await page.request.get(new URL(href, page.url()).href);
      assert.equal(feed.status(), 200);
      assert.match(await feed.text(), /^<\?xml[^>]*>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    } finally {
      await context.close();
    }
  });

  test('in the app, /changes/ filters by kind of change and by agent, in its address', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('changes/'));
      await live(page);
      const all = await count(page);
      assert.ok(all > 100, `${all} changes`);
      await page.getByRole('navigation', { name: 'Kind of change' }).getByRole('link', { name: 'New versions' }).click();
      await page.waitForURL((url) => url.searchParams.get('kind') === 'versions');
      await page.waitForFunction((all) => !document.body.textContent.includes(`${all} changes`), all);
      const versions = await count(page);
      assert.ok(versions > 0 && versions < all, `${versions} of ${all}`);
      const badges = await lines(page).evaluateAll((items) => items.map((li) => li.querySelector('span').textContent));
      assert.ok(badges.length > 0 && badges.every((b) => b === 'New versions'), badges.join(', '));
      await page.getByLabel('Agent').selectOption({ label: 'Gemini CLI' });
      await page.waitForURL((url) => url.searchParams.get('agent') === 'gemini' && url.searchParams.get('kind') === 'versions');
      await page.waitForFunction(() => /^\d+ changes?$/.test(document.querySelector('[role=status]')?.textContent ?? ''));
      const gemini = await lines(page).evaluateAll((items) => items.map((li) => li.textContent));
      assert.ok(gemini.length >= 10, gemini.join('\n'));
      assert.ok(gemini.every((t) => t.includes('Gemini CLI:') && t.includes('→')), gemini.join('\n'));
      // The kind links keep the agent.
      await page.getByRole('navigation', { name: 'Kind of change' }).getByRole('link', { name: 'All', exact: true }).click();
      await page.waitForURL((url) => !url.searchParams.has('kind') && url.searchParams.get('agent') === 'gemini');
      await lines(page).filter({ hasText: 'the nightly probe starts it again' }).first().waitFor();
      // An agent the log never saw, named in the address, is said as text.
      await page.goto(siteUrl('changes/?agent=%3Cimg%20src%3Dx%3E'));
      await live(page);
      await page.getByText('No change of “<img src=x>” is in the log.').waitFor();
      assert.equal(await page.locator('main img[src="x"]').count(), 0);
    } finally {
      await context.close();
    }
  });

  test('an agent page shows its History, dated, with its feed; the catalogue does not download the log', async () => {
    const { context, page } = await launch();
    const asked = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    try {
      await page.goto(siteUrl());
      await live(page);
      await page.waitForLoadState('networkidle');
      assert.ok(!asked.includes('/changes.json'), 'the catalogue does not fetch the change log');
      await page.goto(siteUrl('agents/gemini/'));
      await live(page);
      const history = page.getByRole('region', { name: 'History' });
      await history.getByText('Last updated 2026-08-20; listed since before 2025-12-19.').waitFor();
      const changes = history.getByRole('list', { name: 'Changes to Gemini CLI, newest first' });
      await changes.getByText('0.24.4 → 0.24.5').waitFor();
      await changes.getByRole('heading', { name: '2026-01-20' }).waitFor();
      const feed = history.getByRole('link', { name: "Follow Gemini CLI's changes (Atom feed)" });
      const xml = await (await page.request.get(new URL(await feed.getAttribute('href'), page.url()).href)).text();
      const ids = [...xml.matchAll(/<entry>.*?<id>([^<]+)<\/id>/gs)].map((m) => m[1]);
      assert.equal(ids.length, await changes.locator('li[id]').count(), 'the feed holds the agent’s changes');
      assert.ok(ids.every((id) => id.includes('/changes/#') && id.includes('-gemini-')), ids.join('\n'));
      const head = await page.locator('head link[rel="alternate"][type="application/atom+xml"]').getAttribute('href');
      assert.equal(new URL(head).pathname, '/agents/gemini/feed.xml');
    } finally {
      await context.close();
    }
  });

  test('the header leads to /changes/ inside the app, which then loads the log', async () => {
    const { context, page } = await launch();
    const asked = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    try {
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      await page.getByRole('link', { name: 'What changed' }).click();
      await page.getByRole('heading', { level: 1, name: 'What changed' }).waitFor();
      await lines(page).filter({ hasText: '0.24.4 → 0.24.5' }).waitFor();
      assert.equal(asked.filter((p) => p === '/changes.json').length, 1);
      assert.ok(!asked.includes('/changes/'), 'no page load: the app rendered it');
    } finally {
      await context.close();
    }
  });

  test('the published changes.json is the log the pages show', async () => {
    const { context, page } = await launch();
    try {
      const response = await page.request.get(siteUrl('changes.json'));
      const log = await response.json();
      assert.equal(log.changesFormat, 1);
      assert.deepEqual(log.startedFrom, { day: '2025-12-19', snapshot: '2025-12-19' });
      await page.goto(siteUrl('changes/'));
      await live(page);
      assert.equal(await count(page), log.events.length);
      const newest = log.events.at(-1);
      await page.locator(`li[id^="${newest.day}-${newest.agent}-${newest.kind}-"]`).first().waitFor();
    } finally {
      await context.close();
    }
  });

  test('the catalogue sorts by last update and by newest from the log, each card dated', async () => {
    const { context, page } = await launch();
    const asked = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    try {
      await page.goto(siteUrl());
      await live(page);
      assert.ok(!asked.includes('/changes.json'), 'the log is not fetched until a date order is chosen');
      const cards = page.getByRole('main').getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) });
      await page.getByLabel('Sort').selectOption({ label: 'Recently updated' });
      await page.waitForURL((url) => url.searchParams.get('sort') === 'updated');
      await cards.first().getByText(/^(Added|Updated) \d{4}-\d{2}-\d{2}$/).waitFor();
      const days = async () => cards.evaluateAll((items) => items.map((li) => li.querySelector('time')?.dateTime ?? null));
      const updated = await days();
      assert.ok(updated.every(Boolean), `every card of the first page is dated: ${updated}`);
      assert.deepEqual(updated, [...updated].sort().reverse(), 'latest day first');
      // Gemini CLI's last release is on the log's last day: dated and marked as updated (an agent
      // added that day says "Added" and "new" instead).
      const search = page.getByRole('searchbox', { name: 'Search agents' });
      await search.fill('gemini cli');
      const geminiCard = cards.filter({ has: page.getByRole('link', { name: 'Gemini CLI', exact: true }) });
      await geminiCard.getByText('Updated 2026-08-20', { exact: true }).waitFor();
      await geminiCard.getByText('updated', { exact: true }).waitFor();
      await search.fill('');
      await page.getByLabel('Sort').selectOption({ label: 'Newest' });
      await page.waitForURL((url) => url.searchParams.get('sort') === 'newest');
      await cards.first().getByText(/^Added \d{4}-\d{2}-\d{2}$/).waitFor();
      // Gemini CLI was listed before the log began: no day, after the dated agents found with it.
      await search.fill('gemini');
      await page.waitForURL((url) => url.searchParams.get('q') === 'gemini' && url.searchParams.get('sort') === 'newest');
      const gemini = cards.filter({ has: page.getByRole('link', { name: 'Gemini CLI', exact: true }) });
      await gemini.waitFor();
      assert.equal(await gemini.locator('time').count(), 0);
      const found = await days();
      const undated = found.indexOf(null);
      assert.ok(undated > 0, `dated agents first: ${found}`);
      assert.ok(found.slice(undated).every((d) => d === null), `undated last: ${found}`);
      assert.equal(asked.filter((p) => p === '/changes.json').length, 1, 'the log is fetched once');
      // The order is in the address: a reload shows it again.
      await page.reload();
      await live(page);
      await cards.first().getByText(/^Added \d{4}-\d{2}-\d{2}$/).waitFor();
    } finally {
      await context.close();
    }
  });
});
