// The early search: before the app is live, a search typed into the catalogue is answered by the
// page's small wasm (`crates/early-search`, src/early-search.js) with the cards the build wrote,
// exactly as the live app then shows them; the app takes over without a visible change, keeping
// the text, the caret and the focus, and every keystroke.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { APP_WASM, holdWasm, launch, live, siteUrl } from './helpers.mjs';

const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });
const region = (page) => page.getByRole('region', { name: 'Results' });

/** Queries of each kind: a word, a prefix, a substring, two words, a typo, one matching nothing. */
const QUERIES = ['gemini', 'cod', 'claude agent', 'gemni', 'open', 'zzqqxx'];

/** What a person sees of the results: the count, each card's name, its marked words, and the
 * empty state's message and "Show more", when shown. */
async function seen(page) {
  return region(page).evaluate((section) => {
    const visible = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const cards = [...section.querySelectorAll('li')].filter(visible).map((card) => ({
      name: card.querySelector('h2')?.textContent,
      text: card.innerText,
      marks: [...card.querySelectorAll('mark')].map((m) => m.textContent),
    }));
    const more = [...section.querySelectorAll('button')].find((b) => b.textContent.startsWith('Show more'));
    const empty = [...section.querySelectorAll('p')].find((p) => p.textContent.startsWith('No agents match'));
    return {
      count: section.querySelector('[role=status]').textContent,
      cards,
      more: visible(more) ? more.textContent : null,
      empty: visible(empty) ? empty.textContent : null,
    };
  });
}

/** Waits until the count answers `q` (it changes as the page answers). */
async function answered(page, before) {
  await page.waitForFunction(
    (before) => document.querySelector('section[aria-label=Results] [role=status]')?.textContent !== before,
    before,
  );
}

const prerendered = (page) => page.evaluate(() => document.querySelector('#app[data-prerendered]') !== null);

describe('the early search', () => {
  test('before the app is live, each search shows the cards, order, marks and count the live app shows', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      const early = {};
      for (const q of QUERIES) {
        const before = (await seen(page)).count;
        await search(page).fill(q);
        if (q !== QUERIES[0] || before !== '') await answered(page, before).catch(() => {});
        await page.waitForFunction(() => document.querySelector('aside[aria-label=Filters]')?.getAttribute('aria-busy') === 'true');
        early[q] = await seen(page);
      }
      assert.ok(await prerendered(page), 'the app was held back throughout');
      assert.equal(early.gemini.cards[0].name, 'Gemini CLI');
      assert.equal(early.gemini.cards[0].marks[0], 'Gemini', 'the name is marked');
      assert.match(early.gemini.count, /^\d+ agents?$/);
      assert.equal(early.gemni.cards[0].name, 'Gemini CLI', 'a typo still finds it');
      assert.equal(early.zzqqxx.count, '0 agents');
      assert.equal(early.zzqqxx.cards.length, 0);
      assert.equal(early.zzqqxx.empty, 'No agents match “zzqqxx”.');
      release();
      await live(page);
      for (const q of QUERIES) {
        await search(page).fill(q);
        await page.waitForFunction((q) => new URL(location.href).searchParams.get('q') === q, q);
        await page.waitForTimeout(100);
        assert.deepEqual(await seen(page), early[q], `"${q}": the live app shows what the early search showed`);
      }
      assert.equal(await page.locator('aside[aria-label=Filters]').getAttribute('aria-busy'), null, 'the live filters are not busy');
    } finally {
      await context.close();
    }
  });

  test('the take-over changes nothing visible and keeps the text, the caret and the focus', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      await search(page).pressSequentially('claude');
      await page.getByRole('link', { name: 'Claude Agent', exact: true }).waitFor();
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      const before = await seen(page);
      const boxes = await region(page).getByRole('listitem').evaluateAll((all) => all.map((li) => li.getBoundingClientRect().toJSON()));
      release();
      await live(page);
      assert.deepEqual(await seen(page), before);
      const after = await region(page).getByRole('listitem').evaluateAll((all) => all.map((li) => li.getBoundingClientRect().toJSON()));
      assert.deepEqual(after, boxes, 'nothing moved');
      const box = await search(page).evaluate((box) => ({ focused: box === document.activeElement, value: box.value, caret: [box.selectionStart, box.selectionEnd] }));
      assert.deepEqual(box, { focused: true, value: 'claude', caret: [4, 4] });
    } finally {
      await context.close();
    }
  });

  test('typing fast through the take-over loses no keystroke', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      await search(page).pressSequentially('gem');
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
      release();
      await search(page).pressSequentially('ini cli', { delay: 15 });
      await live(page);
      await page.keyboard.type(' g', { delay: 15 });
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
      assert.equal(await search(page).inputValue(), 'gemini cli');
      await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'gemini cli');
      assert.equal(await region(page).getByRole('heading').first().textContent(), 'Gemini CLI');
    } finally {
      await context.close();
    }
  });

  test('the early search is the only wasm fetched before the first answer, and a page asking for filters is left to the app', async () => {
    const { context, page } = await launch();
    try {
      const wasm = [];
      context.on('request', (request) => request.url().endsWith('.wasm') && wasm.push(new URL(request.url()).pathname));
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
      assert.equal(wasm[0], '/acp-early_bg.wasm', `first: ${wasm}`);
      release();
      await live(page);

      // With a filter in the address, the built page shows every agent: the early search does
      // not answer a search it would answer without the filter.
      const held = await holdWasm(page);
      await page.goto(siteUrl('?dist=uvx'));
      const count = await region(page).getByRole('status').textContent();
      await search(page).fill('gemini');
      await page.waitForTimeout(500);
      assert.equal(await region(page).getByRole('status').textContent(), count);
      held();
      await live(page);
      await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'gemini');
      assert.equal(new URL(page.url()).searchParams.get('dist'), 'uvx');
    } finally {
      await context.close();
    }
  });

  test('an address with a search is answered before the app is live, in the box and the results', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl('?q=gemini'));
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
      assert.equal(await search(page).inputValue(), 'gemini');
      const early = await seen(page);
      assert.ok(early.cards.length < 48, `${early.cards.length} cards`);
      assert.ok(await prerendered(page));
      release();
      await live(page);
      assert.deepEqual(await seen(page), early);
    } finally {
      await context.close();
    }
  });

  test('when the early search cannot load, the page stays as built and the app still answers', async () => {
    const { context, page } = await launch();
    try {
      await page.route(/acp-early_bg\.wasm$/, (route) => route.fulfill({ status: 404, body: 'missing' }));
      await page.goto(siteUrl());
      await live(page);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
      assert.ok(APP_WASM.test('/acp-catalog-0123_bg.wasm') && !APP_WASM.test('/acp-early_bg.wasm'));
    } finally {
      await context.close();
    }
  });
});
