// Agents side by side: chosen with "Compare" on cards and pages, the choice kept across pages,
// the comparison a link with its differences marked and the rest folded, readable on a phone,
// and bad `ids` values passed over with a notice.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { launch, live, siteUrl } from './helpers.mjs';

const bar = (page) => page.getByRole('complementary', { name: 'Agents to compare' });
const table = (page) => page.getByRole('table', { name: 'Agents side by side' });
const row = (page, name) => table(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });

describe('compare', () => {
  test('three agents chosen on cards and a page, compared side by side at a link', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      const gemini = page.getByRole('button', { name: 'Compare Gemini CLI' });
      await gemini.click();
      assert.equal(await gemini.getAttribute('aria-pressed'), 'true');
      await bar(page).getByText('1 agent chosen').waitFor();
      await page.getByRole('searchbox', { name: 'Search agents' }).fill('codex');
      await page.getByRole('button', { name: 'Compare Codex', exact: true }).click();
      await bar(page).getByText('2 agents chosen').waitFor();
      // Kept across pages: the agent page knows, and adds the third.
      await page.goto(siteUrl('agents/z4code/'));
      await live(page);
      await bar(page).getByText('2 agents chosen').waitFor();
      await page.getByRole('button', { name: 'Compare z4code' }).click();
      await bar(page).getByRole('link', { name: 'Compare side by side →' }).click();
      await page.waitForURL((url) => url.pathname === '/compare/' && url.searchParams.get('ids') === 'gemini,codex-acp,z4code');
      await table(page).waitFor();
      const heads = await table(page).locator('thead th a').allTextContents();
      assert.deepEqual(heads, ['Gemini CLI', 'Codex', 'z4code']);
      // Differences are marked; a binary for one platform against npx packages differs.
      const runsOn = row(page, /^Runs on/);
      assert.match(await runsOn.textContent(), /differs/);
      assert.match(await runsOn.textContent(), /macOS · ARM64/);
      // Rows the same for all are folded, and open.
      const folded = page.getByText(/^\d+ rows? the same for all$/);
      await folded.waitFor();
      const same = page.getByRole('table', { name: 'Rows the same for all' });
      assert.equal(await same.isVisible(), false);
      await folded.click();
      await same.waitFor();
      assert.doesNotMatch(await same.textContent(), /differs/);

      // A link: a fresh visitor opening it sees the same table.
      const link = page.url();
      const other = await launch();
      try {
        await other.page.goto(link);
        await live(other.page);
        assert.deepEqual(await table(other.page).locator('thead th a').allTextContents(), heads);
      } finally {
        await other.context.close();
      }
      // Taken out from the comparison's own header, the bar follows.
      await table(page).getByRole('button', { name: 'Compare z4code' }).click();
      await bar(page).getByText('2 agents chosen').waitFor();
    } finally {
      await context.close();
    }
  });

  test('on a phone the agents scroll sideways and the row names stay', async () => {
    const { context, page } = await launch({ viewport: { width: 390, height: 844 } });
    try {
      await page.goto(siteUrl('compare/?ids=gemini,z4code,vtcode,pi'));
      await live(page);
      await table(page).waitFor();
      const name = row(page, /^Runs on/).getByRole('rowheader');
      const cell = row(page, /^Runs on/).getByRole('cell').last();
      const scroller = table(page).locator('xpath=..');
      assert.ok(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth + 100));
      const before = [await name.boundingBox(), await cell.boundingBox()];
      await scroller.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
      await page.waitForTimeout(100);
      const after = [await name.boundingBox(), await cell.boundingBox()];
      assert.equal(Math.round(after[0].x), Math.round(before[0].x));
      assert.ok(after[1].x < before[1].x - 100, `${before[1].x} → ${after[1].x}`);
    } finally {
      await context.close();
    }
  });

  test('ids that are repeated, too many, not ids or not in the registry are passed over with a notice', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl(`compare/?ids=${encodeURIComponent('gemini,nosuch,gemini,<b>x</b>')}`));
      await live(page);
      await page.getByRole('status').filter({ hasText: 'Passed over in the address: gemini, <b>x</b>' }).waitFor();
      await page.getByRole('status').filter({ hasText: 'Not in the registry shown: nosuch.' }).waitFor();
      await page.getByText('A comparison needs two agents of the registry').waitFor();
      assert.equal(await page.locator('b').count(), 0);
      assert.equal(await table(page).count(), 0);
    } finally {
      await context.close();
    }
  });
});
