// The listing preview `/preview/`: a maintainer pastes or drops agent.json and icon.svg and sees
// the registry's verdict, their card and their page, live; hostile icons are rejected and never
// rendered inline.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { launch, live, siteUrl, subSiteUrl } from './helpers.mjs';

const MANIFEST = {
  id: 'acme-coder',
  name: 'Acme Coder',
  version: '2.4.1',
  description: 'Writes and reviews code in your editor',
  repository: 'https://github.com/acme/acme-coder',
  authors: ['Acme Corp'],
  license: 'Apache-2.0',
  distribution: { npx: { package: '@acme/coder@2.4.1', args: ['acp'], env: { ACME_MODE: 'acp' } } },
};
const MANIFEST_TEXT = `${JSON.stringify(MANIFEST, null, 2)}\n`;
const ICON = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="currentColor"/></svg>';
const HOSTILE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" onload="window.__pwned=1">' +
  '<script>window.__pwned=2</script><path fill="currentColor" d="M0 0h16v16z"/></svg>';

/** Icons the validator once let through: each hid script, or crashed the tab that drew it. */
const ENTITY_ICON =
  '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY s "&#60;script&#62;window.__pwned=3&#60;/script&#62;">]>' +
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">&s;<path fill="currentColor" d="M0 0h16v16z"/></svg>';
const SET_HREF_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><a><set attributeName="href" to="javascript:window.__pwned=4"/>' +
  '<path fill="currentColor" d="M0 0h16v16z"/></a></svg>';
const BLOW_UP_ICON =
  `<!DOCTYPE svg [<!ENTITY x "${'x'.repeat(5000)}">]><svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">` +
  `<text fill="currentColor">${'&x;'.repeat(20000)}</text></svg>`;

const manifestEditor = (page) => page.getByRole('textbox', { name: 'agent.json' });
const iconEditor = (page) => page.getByRole('textbox', { name: 'icon.svg' });
const status = (page) => page.getByRole('status').filter({ hasText: /problems|error|warning|Paste/ });
const problems = (page) => page.getByRole('list', { name: 'Problems' }).getByRole('listitem');
const card = (page) => page.getByRole('list', { name: 'Card preview' });
const pagePreview = (page) => page.getByRole('region', { name: 'Page preview' });

/** Opens the preview and, once it is live, clears the draft an earlier test left in this browser. */
async function openPreview(page, url = siteUrl('preview/')) {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: 'Preview your listing' }).waitFor();
  await live(page);
  await page.getByRole('button', { name: 'Clear' }).click();
  await status(page).filter({ hasText: 'Paste or drop an agent.json to check it.' }).waitFor();
}

describe('listing preview', () => {
  let context;
  let page;
  const dialogs = [];
  before(async () => {
    ({ context, page } = await launch({ viewport: { width: 1280, height: 900 } }));
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
  });
  after(async () => context.close());

  test('the catalogue footer links to it, and it starts empty', async () => {
    await page.goto(siteUrl());
    // Once the catalogue has loaded: until then the footer moves as the results replace the
    // skeleton. Followed from the keyboard: cards far down the page are laid out as they come
    // into view, so the footer can still shift while a pointer would be scrolling to it.
    await page.getByText(/^\d+ agents?$/).waitFor();
    await page.getByRole('link', { name: 'Preview your listing' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Preview your listing' }).waitFor();
    assert.equal(new URL(page.url()).pathname, new URL(siteUrl('preview/')).pathname);
    assert.equal(await manifestEditor(page).inputValue(), '');
    await status(page).filter({ hasText: 'Paste or drop an agent.json to check it.' }).waitFor();
    assert.equal(await card(page).count(), 0);
  });

  test('a valid manifest and icon: no problems, the card and the full page', async () => {
    await openPreview(page);
    await manifestEditor(page).fill(MANIFEST_TEXT);
    await iconEditor(page).fill(ICON);
    await status(page).filter({ hasText: "No problems: the registry's CI would accept this listing." }).waitFor();
    assert.equal(await problems(page).count(), 0);

    const link = card(page).getByRole('link', { name: 'Acme Coder' });
    await link.waitFor();
    await card(page).getByText('Writes and reviews code in your editor').waitFor();
    await card(page).getByText('v2.4.1').waitFor();
    // The icon is a CSS mask over an object URL of the pasted file, never inline markup.
    const mask = card(page).locator('.icon-mask');
    await mask.waitFor();
    // Set through the CSSOM, which the policy allows (a style attribute in the HTML it refuses).
    assert.match(await mask.evaluate((e) => e.style.getPropertyValue('--icon')), /^url\("blob:/);
    assert.equal(await card(page).locator('svg circle').count(), 0);

    const preview = pagePreview(page);
    await preview.getByRole('heading', { level: 1, name: 'Acme Coder' }).waitFor();
    await preview.getByRole('heading', { name: 'Run it' }).waitFor();
    assert.equal(
      await preview.locator('pre code').first().textContent(),
      'ACME_MODE=acp npx -y @acme/coder@2.4.1 acp',
    );
    // Clicking the card keeps the maintainer on their draft.
    await link.click();
    assert.equal(new URL(page.url()).pathname, new URL(siteUrl('preview/')).pathname);
    assert.equal(await manifestEditor(page).inputValue(), MANIFEST_TEXT);
  });

  test('edits are checked live: problems list their file, line and column, and lead to the place', async () => {
    await openPreview(page);
    await manifestEditor(page).fill(MANIFEST_TEXT);
    await iconEditor(page).fill(ICON);
    await status(page).filter({ hasText: 'No problems' }).waitFor();

    const broken = MANIFEST_TEXT.replace('"version": "2.4.1"', '"version": "2.4"').replace('"id": "acme-coder"', '"id": "Acme Coder"');
    await manifestEditor(page).fill(broken);
    await status(page).filter({ hasText: /^\d+ errors?, \d+ warnings?: the registry's CI would reject this listing\.$/ }).waitFor();
    const version = problems(page).filter({ hasText: 'version-format' });
    await version.waitFor();
    // `"version": "2.4"` is on line 4; the value starts at column 14.
    const place = version.getByRole('button', { name: /agent\.json:4:14$/ });
    await place.waitFor();
    await version.getByText(/^Fix: /).waitFor();
    await problems(page).filter({ hasText: 'id-format' }).getByRole('button', { name: /agent\.json:2:9$/ }).waitFor();
    // The excerpt shows the line with a marker under the value.
    assert.match(await version.locator('pre').textContent(), /4 \| {3}"version": "2\.4",\n +\| +\^{5}/);

    await place.click();
    const selected = await manifestEditor(page).evaluate((el) => [
      document.activeElement === el,
      el.value.slice(el.selectionStart, el.selectionEnd),
    ]);
    assert.deepEqual(selected, [true, '"2.4"']);

    // The card still shows what can be read.
    await card(page).getByText('v2.4').waitFor();

    // Fixing it clears the problems again.
    await manifestEditor(page).fill(MANIFEST_TEXT);
    await status(page).filter({ hasText: 'No problems' }).waitFor();
  });

  test('the draft survives a reload, and Clear forgets it', async () => {
    await openPreview(page);
    await manifestEditor(page).fill(MANIFEST_TEXT);
    await iconEditor(page).fill(ICON);
    await status(page).filter({ hasText: 'No problems' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Preview your listing' }).waitFor();
    await live(page);
    assert.equal(await manifestEditor(page).inputValue(), MANIFEST_TEXT);
    assert.equal(await iconEditor(page).inputValue(), ICON);
    await card(page).getByRole('link', { name: 'Acme Coder' }).waitFor();

    await page.getByRole('button', { name: 'Clear' }).click();
    await status(page).filter({ hasText: 'Paste or drop an agent.json to check it.' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Preview your listing' }).waitFor();
    await live(page);
    assert.equal(await manifestEditor(page).inputValue(), '');
    assert.equal(await iconEditor(page).inputValue(), '');
  });

  test('what is typed before the preview is live is kept, checked, and keeps the focus', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      // The app's wasm is held back until the text has been typed into the built page.
      let release;
      const typed = new Promise((resolve) => (release = resolve));
      await page.route(/_bg\.wasm$/, async (route) => {
        await typed;
        await route.continue();
      });
      await page.goto(siteUrl('preview/'));
      await manifestEditor(page).fill(MANIFEST_TEXT);
      await manifestEditor(page).focus();
      assert.equal(await page.locator('#app[data-prerendered]').count(), 1, 'typed into the page as built');
      release();
      await live(page);
      assert.equal(await manifestEditor(page).inputValue(), MANIFEST_TEXT);
      await card(page).getByRole('link', { name: 'Acme Coder' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'manifest-editor');
    } finally {
      await context.close();
    }
  });

  test('JSON syntax errors and JSONC are reported with their lines', async () => {
    await openPreview(page);
    await manifestEditor(page).fill('{\n  "id": "acme-coder",\n  "name": \n}');
    await problems(page).filter({ hasText: 'json-syntax' }).getByRole('button', { name: /agent\.json:4:1$/ }).waitFor();
    await page.getByText(/The card and page appear once the manifest can be read\./).waitFor();
    assert.equal(await card(page).count(), 0);

    await manifestEditor(page).fill(`// Acme's listing\n${MANIFEST_TEXT.replace('"acp"]', '"acp",]')}`);
    await iconEditor(page).fill(ICON);
    await problems(page).filter({ hasText: 'jsonc' }).getByRole('button', { name: /agent\.json:1:1$/ }).waitFor();
    // The registry's CI parses strict JSON: JSONC fails there, though the preview still reads it.
    await status(page).filter({ hasText: "1 error, 0 warnings: the registry's CI would reject this listing." }).waitFor();
    await card(page).getByRole('link', { name: 'Acme Coder' }).waitFor();
  });

  test('a hostile icon is rejected and never rendered inline', async () => {
    await openPreview(page);
    await manifestEditor(page).fill(MANIFEST_TEXT);
    await iconEditor(page).fill(HOSTILE_ICON);
    for (const rule of ['icon-script', 'icon-event-handler']) {
      await problems(page).filter({ hasText: rule }).getByRole('button', { name: /acme-coder\/icon\.svg:1:\d+$/ }).waitFor();
    }
    await page.getByText('Your icon is not shown until its errors are fixed').waitFor();
    // The card shows the monogram, not the icon.
    await card(page).getByText('A', { exact: true }).waitFor();
    assert.equal(await card(page).locator('.icon-mask').count(), 0);
    // Nothing of the icon became markup, and nothing of it ran.
    assert.equal(await page.locator('main svg[onload], main script').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.deepEqual(dialogs, []);
    // The text is shown as text in the excerpt, escaped.
    assert.match(await problems(page).filter({ hasText: 'icon-script' }).locator('pre').textContent(), /<script>/);
  });

  for (const [what, icon, rule] of [
    ['an entity that expands to a script', ENTITY_ICON, 'icon-dtd'],
    ['an animation that sets a javascript: link', SET_HREF_ICON, 'icon-animation'],
    ['an entity expanded to 100 MB of text', BLOW_UP_ICON, 'icon-dtd'],
  ]) {
    test(`an icon hiding ${what} is rejected, nothing runs, and the monogram shows`, async () => {
      await openPreview(page);
      await manifestEditor(page).fill(MANIFEST_TEXT);
      await iconEditor(page).fill(icon);
      await problems(page).filter({ hasText: rule }).first().waitFor();
      await page.getByText('Your icon is not shown until its errors are fixed').waitFor();
      await card(page).getByText('A', { exact: true }).waitFor();
      assert.equal(await card(page).locator('.icon-mask').count(), 0);
      // Clicking where a link would be runs nothing either.
      await card(page).getByText('A', { exact: true }).click({ force: true });
      assert.equal(await page.locator('main script, main svg').count(), 0);
      assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
      assert.deepEqual(dialogs, []);
      // The tab is alive and the draft, with its hostile icon, is opened again on reload.
      await page.reload();
      await live(page);
      assert.equal(await iconEditor(page).inputValue(), icon);
      await problems(page).filter({ hasText: rule }).first().waitFor();
    });
  }

  test('a kept draft whose opening never finished is held back, and can be opened or discarded', { timeout: 120_000 }, async () => {
    // A browser of its own, whose tabs are crashed on purpose. Tabs of one site may share a
    // process, so each step has a tab of its own, and none is open while another crashes.
    const { context, page: first } = await launch({ viewport: { width: 1280, height: 900 } });
    /** A new tab with the preview, live. */
    const open = async () => {
      const tab = await context.newPage();
      await tab.goto(siteUrl('preview/'));
      await live(tab);
      return tab;
    };
    /** Opens the preview in a new tab and crashes it once it is live, as an icon that crashed
     * the tab would, before the kept draft counts as opened. */
    const crashWhileOpening = async () => {
      const tab = await open();
      const crashed = new Promise((resolve) => tab.once('crash', resolve));
      // Never answered (the page is gone): not awaited.
      (await context.newCDPSession(tab)).send('Page.crash').catch(() => {});
      await crashed;
      await tab.close();
    };
    const notice = (tab) => tab.getByRole('alert').filter({ hasText: 'The draft kept in this browser was not opened' });
    try {
      await openPreview(first);
      await manifestEditor(first).fill(MANIFEST_TEXT);
      await iconEditor(first).fill(ICON);
      await status(first).filter({ hasText: 'No problems' }).waitFor();
      await first.close();
      await crashWhileOpening();

      let tab = await open();
      await notice(tab).waitFor();
      assert.equal(await manifestEditor(tab).inputValue(), '');
      assert.equal(await card(tab).count(), 0);
      await notice(tab).getByRole('button', { name: 'Open it anyway' }).click();
      assert.equal(await manifestEditor(tab).inputValue(), MANIFEST_TEXT);
      assert.equal(await iconEditor(tab).inputValue(), ICON);
      await card(tab).getByRole('link', { name: 'Acme Coder' }).waitFor();
      assert.equal(await notice(tab).count(), 0);
      // Shown long enough to count as opened: the next tab opens the draft, and crashes.
      await tab.waitForTimeout(3500);
      await tab.close();
      await crashWhileOpening();

      // Discarded: the next visit starts empty, with no notice.
      tab = await open();
      await notice(tab).getByRole('button', { name: 'Discard it' }).click();
      assert.equal(await notice(tab).count(), 0);
      await tab.reload();
      await live(tab);
      assert.equal(await manifestEditor(tab).inputValue(), '');
      assert.equal(await notice(tab).count(), 0);
    } finally {
      await context.close();
    }
  });

  test('files can be opened (or dropped): .json into the manifest, .svg into the icon', async () => {
    await openPreview(page);
    await page.getByLabel('Open files…').setInputFiles([
      { name: 'agent.json', mimeType: 'application/json', buffer: Buffer.from(MANIFEST_TEXT) },
      { name: 'icon.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(ICON) },
    ]);
    await status(page).filter({ hasText: 'No problems' }).waitFor();
    assert.equal(await manifestEditor(page).inputValue(), MANIFEST_TEXT);
    assert.equal(await iconEditor(page).inputValue(), ICON);

    // Dropping a file onto the editors reads it the same way.
    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'agent.json', { type: 'application/json' }));
      return transfer;
    }, MANIFEST_TEXT.replace('Acme Coder', 'Acme Dropped'));
    await page.getByRole('region', { name: 'Your files' }).dispatchEvent('drop', { dataTransfer });
    await card(page).getByRole('link', { name: 'Acme Dropped' }).waitFor();
  });

  test('no accessibility violations with a listing shown, in both themes', async () => {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await openPreview(page);
      await page.getByRole('button', { name: 'Load an example' }).click();
      await card(page).getByRole('link').waitFor();
      const { violations } = await new AxeBuilder({ page }).analyze();
      assert.deepEqual(violations.map((v) => `${scheme} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
    }
  });

  test('under a base path, the preview and its links stay under it', async () => {
    await openPreview(page, subSiteUrl('preview/'));
    await page.getByRole('button', { name: 'Load an example' }).click();
    await card(page).getByRole('link', { name: 'Example Agent' }).waitFor();
    const home = page.getByRole('link', { name: 'ACP Agent Registry' });
    assert.equal(new URL(await home.evaluate((a) => a.href)).pathname, new URL(subSiteUrl()).pathname);
  });
});
