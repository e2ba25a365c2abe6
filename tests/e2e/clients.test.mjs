// Will it work in my editor: the client profiles the build publishes (data/clients.json), the
// client pages without JavaScript, "My editor" on the catalogue (each card's verdict, kept on
// reload and carried by a link), an agent page's "In your editor", and bad `client` values.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { launch, live, siteUrl } from './helpers.mjs';

const OUTCOMES = /^(Works|Works after a step|Not known|Does not work)$/;
const card = (page, name) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
const picker = (page) => page.getByRole('combobox', { name: 'My editor' });

describe('clients', () => {
  test('/clients/ and a client page read without JavaScript, every fact with its source', async () => {
    const { context, page } = await launch({ javaScriptEnabled: false });
    try {
      await page.goto(siteUrl('clients/'));
      await page.getByRole('heading', { level: 1, name: 'ACP clients' }).waitFor();
      const known = page.getByRole('table', { name: 'Clients with known facts' });
      const zed = known.getByRole('row').filter({ has: page.getByRole('link', { name: 'Zed', exact: true }) });
      assert.match(await zed.textContent(), /the ACP registry/);
      assert.match(await zed.textContent(), /6 of 6/);
      const unresearched = page.getByRole('heading', { level: 2, name: /nothing known yet \((\d+)\)/ });
      const count = Number((await unresearched.textContent()).match(/\((\d+)\)/)[1]);
      assert.ok(count > 50, `${count}`);

      await known.getByRole('link', { name: 'Zed', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Zed' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/clients/zed/');
      // Each of the six facts says its day and links its source.
      const facts = page.locator('dl');
      assert.equal(await facts.locator('dt').count(), 6);
      assert.equal(await facts.getByText(/checked \d{4}-\d{2}-\d{2}/).count(), 6);
      for (const href of await facts.getByRole('link', { name: 'source' }).evaluateAll((as) => as.map((a) => a.href))) {
        assert.match(href, /^https:\/\//);
      }
      // Every agent's verdict on three systems: a binary for macOS ARM64 only does not run on Windows.
      const agents = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Agent' }) });
      const rows = agents.locator('tbody tr');
      assert.ok((await rows.count()) > 100);
      const gemini = rows.filter({ has: page.getByRole('link', { name: 'Gemini CLI', exact: true }) });
      const cells = await gemini.locator('td').evaluateAll((tds) => tds.slice(0, 3).map((td) => td.textContent.trim()));
      assert.equal(cells.length, 3);
      for (const cell of cells) assert.match(cell, OUTCOMES);
      assert.deepEqual(cells, ['Works', 'Works', 'Works']);
      const z4 = rows.filter({ has: page.getByRole('link', { name: /z4/i }) }).first();
      const z4cells = await z4.locator('td').evaluateAll((tds) => tds.map((td) => td.textContent.trim()));
      assert.equal(z4cells[2], 'Does not work');
      assert.match(z4cells[3], /no build of this agent for Windows/i);
    } finally {
      await context.close();
    }
  });

  test('My editor: each card says whether its agent works there, kept on reload and in the address', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      await card(page, 'Gemini CLI').waitFor();
      assert.equal(await card(page, 'Gemini CLI').getByText(/^In /).count(), 0);
      await picker(page).selectOption({ label: 'Zed' });
      await page.waitForURL((url) => url.searchParams.get('client') === 'zed' && url.searchParams.get('q') === 'gemini');
      const line = card(page, 'Gemini CLI').locator('p').filter({ hasText: /^In Zed:/ });
      await line.waitFor();
      assert.match(await line.textContent(), /^In Zed:\s*Works$/);
      // An agent with only uvx: Zed lists binary and npx agents only, so it takes a step at best.
      await page.getByRole('searchbox', { name: 'Search agents' }).fill('gptme');
      const uvx = card(page, 'gptme').locator('p').filter({ hasText: /^In Zed:/ });
      await uvx.waitFor();
      assert.match(await uvx.textContent(), /Works after a step|Not known/);
      assert.doesNotMatch(await uvx.textContent(), /^In Zed:\s*Works$/);

      // Remembered on this device: the address without it shows it again, the same cards.
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      assert.equal(await picker(page).inputValue(), 'zed');
      await card(page, 'Gemini CLI').getByText('In Zed:').waitFor();

      // A link carries another client, for that page, without changing the one remembered.
      await page.goto(siteUrl('?q=gemini&client=avante-nvim'));
      await live(page);
      assert.equal(await picker(page).inputValue(), 'avante-nvim');
      await card(page, 'Gemini CLI').getByText('In avante.nvim:').waitFor();
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      assert.equal(await picker(page).inputValue(), 'zed');

      // Not chosen: no verdicts.
      await picker(page).selectOption({ label: 'Not chosen' });
      await page.waitForURL((url) => !url.searchParams.has('client'));
      await page.waitForFunction(() => ![...document.querySelectorAll('li p')].some((p) => p.textContent.startsWith('In Zed:')));
    } finally {
      await context.close();
    }
  });

  test('the catalogue filters by the verdict in the chosen editor, counted like any filter', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('?client=zed'));
      await live(page);
      const group = page.getByRole('group', { name: 'In Zed' });
      const works = group.getByRole('checkbox', { name: /^Works \d+$/ });
      const label = await group.locator('label', { hasText: /^Works\s*\d+$/ }).textContent();
      const count = Number(label.match(/(\d+)$/)[1]);
      const total = Number((await page.getByRole('status').filter({ hasText: /^\d+ agents?$/ }).textContent()).match(/^(\d+)/)[1]);
      assert.ok(count > 0 && count < total, `${count} of ${total}`);
      await works.check();
      await page.waitForURL((url) => url.searchParams.getAll('works').includes('works'));
      await page.getByRole('status').filter({ hasText: new RegExp(`^${count} agents?$`) }).waitFor();
      const lines = await page.locator('ul li p').filter({ hasText: /^In Zed:/ }).allTextContents();
      assert.ok(lines.length > 0);
      for (const line of lines) assert.match(line, /^In Zed:\s*Works$/);
      // Another filter is counted under it: npx among the agents that work.
      const npx = page.getByRole('group', { name: 'Distribution' }).locator('label', { hasText: /^npx/ });
      const npxCount = Number((await npx.textContent()).match(/(\d+)\s*$/)[1]);
      assert.ok(npxCount <= count);
      // The probe's ACP version is a filter too, "Not probed" a value of its own.
      const version = page.getByRole('group', { name: 'ACP version (probed)' });
      await version.getByRole('checkbox', { name: /^Not probed/ }).waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.waitForURL((url) => !url.searchParams.has('works') && url.searchParams.get('client') === 'zed');
      await page.getByRole('status').filter({ hasText: new RegExp(`^${total} agents?$`) }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('an unknown or malformed client in the address is passed over with a quiet notice', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('?q=gemini&client=nosuch-editor'));
      await live(page);
      await page.getByRole('status').filter({ hasText: 'No ACP client “nosuch-editor” is known here' }).waitFor();
      await card(page, 'Gemini CLI').waitFor();
      assert.equal(await page.getByText(/^In nosuch/).count(), 0);
      assert.equal(await picker(page).inputValue(), '');
      // Not a slug: not a client at all, and nothing is said.
      await page.goto(siteUrl(`?client=${encodeURIComponent('<img src=x onerror=alert(1)>')}`));
      await live(page);
      assert.equal(await picker(page).inputValue(), '');
      assert.equal(await page.getByText('is known here').count(), 0);
    } finally {
      await context.close();
    }
  });

  test("an agent page puts the visitor's editor first in its table of every client", async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('agents/claude-acp/?client=avante-nvim'));
      await live(page);
      const section = page.getByRole('region', { name: 'In your editor' });
      const rows = section.locator('tbody tr');
      await rows.first().getByText('My editor').waitFor();
      const first = await rows.first().textContent();
      assert.match(first, /^avante\.nvim/);
      // Its probe offers terminal sign-in only, which avante.nvim does not run: a step.
      assert.match(first, /Works after a step/);
      assert.match(first, /Sign in from a terminal first/);
      assert.ok((await rows.count()) >= 5);
      await section.getByRole('combobox', { name: 'My editor' }).selectOption({ label: 'Zed' });
      await page.waitForURL((url) => url.searchParams.get('client') === 'zed');
      await page.waitForFunction(() => document.querySelector('#in-your-editor tbody tr')?.textContent.startsWith('Zed'));
      // A row opens its client's configuration in "Add it to your editor".
      await section.getByRole('button', { name: 'Its configuration for Neovim (avante.nvim)' }).click();
      const tab = page.getByRole('tablist', { name: 'Editor' }).getByRole('tab', { name: 'Neovim (avante.nvim)' });
      assert.equal(await tab.getAttribute('aria-selected'), 'true');
      assert.ok(await page.locator('#editors').evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      }));
      // What holds is folded; opened, each reason links the client fact it rests on.
      const folded = rows.first().getByText(/^All \d checks hold$/);
      const sources = rows.first().getByRole('link', { name: 'source' });
      assert.equal(await sources.count(), 0);
      await folded.click();
      await sources.first().waitFor();
      assert.ok((await sources.count()) >= 4);
    } finally {
      await context.close();
    }
  });
});
