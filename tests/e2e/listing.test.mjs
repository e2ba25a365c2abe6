// Where agents are listed and whether they are healthy: the "Listed for" and "Health" facets
// with counts worked out here from the bundled files, an agent page's listing, its preview
// channel and its quarantine reason, and the badge with its snippets (copied back from the
// clipboard). All of it also in the HTML the build wrote, for visitors without JavaScript.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { launch, launchForAgentPages, live, siteUrl, snippet } from './helpers.mjs';

const bundled = (file) => JSON.parse(readFileSync(new URL(`../../public/${file}`, import.meta.url), 'utf8'));
const REGISTRY = bundled('registry.json');
const JETBRAINS = new Map(bundled('registry-for-jetbrains.json').agents.map((a) => [a.id, a]));
const PREVIEW = new Map(bundled('registry-for-jetbrains-preview.json').agents.map((a) => [a.id, a]));
const QUARANTINE = bundled('quarantine.json');
const MATRIX = new Map(bundled('protocol-matrix.json').agents.map((a) => [a.id, a]));
const AGENTS = REGISTRY.agents;
const agent = (id) => AGENTS.find((a) => a.id === id);

/** Where each agent is listed and its health, by the rules the site states. */
const expected = {
  default: AGENTS.length,
  jetbrains: AGENTS.filter((a) => JETBRAINS.has(a.id)).length,
  bundled: AGENTS.filter((a) => JETBRAINS.get(a.id)?.bundled).length,
  preview: AGENTS.filter((a) => JETBRAINS.has(a.id) && PREVIEW.has(a.id) && PREVIEW.get(a.id).version !== JETBRAINS.get(a.id).version).length,
  quarantined: AGENTS.filter((a) => a.id in QUARANTINE).length,
  probeFailed: AGENTS.filter((a) => !(a.id in QUARANTINE) && MATRIX.has(a.id) && MATRIX.get(a.id).initialize.status !== 'success').length,
  healthy: AGENTS.filter((a) => !(a.id in QUARANTINE) && MATRIX.get(a.id)?.initialize.status === 'success').length,
  notProbed: AGENTS.filter((a) => !(a.id in QUARANTINE) && !MATRIX.has(a.id)).length,
};

const count = (page) => page.getByRole('status').filter({ hasText: /^\d+ agents?$/ });
const countOf = async (page) => Number((await count(page).textContent()).split(' ')[0]);

/** The count shown beside an option of a facet group. */
async function optionCount(page, group, label) {
  const row = page.getByRole('group', { name: group }).locator('label').filter({ hasText: label });
  return Number((await row.locator('span').last().textContent()).trim());
}

describe('where agents are listed, and their health', () => {
  let context;
  let page;
  before(async () => {
    ({ context, page } = await launchForAgentPages());
  });
  after(async () => context.close());

  test('the bundled data has an agent of each kind the page must show', () => {
    assert.ok(expected.bundled >= 1 && expected.preview >= 1 && expected.quarantined >= 1, JSON.stringify(expected));
    assert.ok(expected.jetbrains < expected.default, 'some agent is only in the default view');
  });

  test('"Listed for" narrows with the right counts', async () => {
    await page.goto(siteUrl());
    await live(page);
    const group = 'Listed for';
    assert.equal(await optionCount(page, group, 'Zed and other clients'), expected.default);
    assert.equal(await optionCount(page, group, /^JetBrains IDEs/), expected.jetbrains);
    assert.equal(await optionCount(page, group, 'Bundled with JetBrains IDEs'), expected.bundled);
    assert.equal(await optionCount(page, group, 'JetBrains preview channel'), expected.preview);
    await page.getByRole('group', { name: group }).getByRole('checkbox', { name: /^JetBrains IDEs/ }).check();
    await count(page).filter({ hasText: `${expected.jetbrains} agent` }).waitFor();
    assert.match(page.url(), /listed=jetbrains(&|$)/);
    // Disjunctive: the group's own counts stay; the other groups count JetBrains agents only.
    assert.equal(await optionCount(page, group, 'Zed and other clients'), expected.default);
    // The agent only in the default view is not among the results; one that is listed is.
    const only = AGENTS.find((a) => !JETBRAINS.has(a.id));
    const cardOf = (id) => page.getByRole('region', { name: 'Results' }).getByRole('link').and(page.locator(`[href$="/agents/${id}"]`));
    await page.getByRole('searchbox').fill('gemini');
    await cardOf('gemini').waitFor();
    await page.getByRole('searchbox').fill(only.id);
    await page.waitForFunction((id) => !document.querySelector(`a[href$="/agents/${id}"]`), only.id);
    assert.equal(await cardOf(only.id).count(), 0);
    await page.getByRole('searchbox').fill('');
    await page.getByRole('group', { name: group }).getByRole('checkbox', { name: /^JetBrains IDEs/ }).uncheck();
    await page.getByRole('group', { name: group }).getByRole('checkbox', { name: /Bundled with JetBrains IDEs/ }).check();
    await count(page).filter({ hasText: `${expected.bundled} agent` }).waitFor();
    const bundledAgent = AGENTS.find((a) => JETBRAINS.get(a.id)?.bundled);
    await page.getByRole('link', { name: bundledAgent.name, exact: true }).waitFor();
  });

  test('"Health" narrows with the right counts, and quarantined cards say why', async () => {
    await page.goto(siteUrl());
    await live(page);
    const group = 'Health';
    assert.equal(await optionCount(page, group, 'Quarantined'), expected.quarantined);
    assert.equal(await optionCount(page, group, 'Probe failed'), expected.probeFailed);
    assert.equal(await optionCount(page, group, 'Healthy'), expected.healthy);
    assert.equal(await optionCount(page, group, 'Not probed'), expected.notProbed);
    assert.equal(expected.quarantined + expected.probeFailed + expected.healthy + expected.notProbed, AGENTS.length);
    await page.getByRole('group', { name: group }).getByRole('checkbox', { name: /Quarantined/ }).check();
    await count(page).filter({ hasText: `${expected.quarantined} agents` }).waitFor();
    assert.match(page.url(), /health=quarantined/);
    const cards = page.getByRole('region', { name: 'Results' }).getByRole('listitem').filter({ has: page.getByRole('heading') });
    assert.equal(await cards.count(), expected.quarantined);
    for (const card of await cards.all()) {
      await card.getByRole('note').filter({ hasText: /^Quarantined: / }).waitFor();
    }
    await page.getByRole('group', { name: group }).getByRole('checkbox', { name: /Healthy/ }).check();
    assert.equal(await countOf(page), expected.quarantined + expected.healthy);
  });

  test('an agent page says where it is listed, and serves its preview as a tab marked unverified', async () => {
    const id = AGENTS.find((a) => JETBRAINS.get(a.id)?.bundled && PREVIEW.get(a.id)?.version !== JETBRAINS.get(a.id).version).id;
    const stable = agent(id);
    const preview = PREVIEW.get(id);
    await page.goto(siteUrl(`agents/${id}`));
    await live(page);
    await page.getByRole('heading', { level: 1, name: stable.name }).waitFor();
    const listed = page.getByRole('definition').filter({ hasText: 'Zed and other clients' });
    assert.equal(await listed.textContent(), 'Zed and other clients · JetBrains IDEs · bundled with JetBrains IDEs');
    const channels = page.getByRole('tablist', { name: 'Release channel' });
    assert.equal(await channels.getByRole('tab', { name: 'Stable' }).getAttribute('aria-selected'), 'true');
    assert.match(await snippet(page, 'Run').first().textContent(), new RegExp(`@${stable.version.replace(/\./g, '\\.')}`));
    assert.equal(await snippet(page, 'Zed: install from the ACP registry').count(), 1);
    await channels.getByRole('tab', { name: 'Preview (unverified)' }).click();
    await page.getByRole('note').filter({ hasText: `v${preview.version}, what JetBrains IDEs’ preview channel` }).waitFor();
    await page.getByText('The registry does not verify preview distributions').waitFor();
    const run = await snippet(page, 'Run').first().textContent();
    assert.ok(run.includes(preview.distribution.npx.package), run);
    // The editors' snippets follow the channel too: Zed's custom command runs the preview, and
    // Zed's registry form, which would install the stable release, is not offered.
    const zed = (await snippet(page, 'Zed').allTextContents()).join('\n');
    assert.ok(zed.includes(preview.distribution.npx.package), zed);
    assert.equal(await snippet(page, 'Zed: install from the ACP registry').count(), 0);
    // From the keyboard too: the arrow keys move between the channels.
    await channels.getByRole('tab', { name: 'Stable' }).click();
    await page.keyboard.press('ArrowRight');
    const previewTab = channels.getByRole('tab', { name: 'Preview (unverified)' });
    assert.equal(await previewTab.evaluate((el) => el === document.activeElement), true);
    assert.equal(await previewTab.getAttribute('aria-selected'), 'true');
  });

  test('an agent only in the default view says so; one without a preview has no channel tabs', async () => {
    const only = AGENTS.find((a) => !JETBRAINS.has(a.id));
    await page.goto(siteUrl(`agents/${only.id}`));
    await live(page);
    await page.getByRole('heading', { level: 1, name: only.name }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'Zed and other clients · not in JetBrains IDEs’ list' }).waitFor();
    assert.equal(await page.getByRole('tablist', { name: 'Release channel' }).count(), 0);
  });

  test('a quarantined agent page gives the reason in words, and the registry’s own', async () => {
    const id = 'vtcode';
    assert.equal(QUARANTINE[id], 'Missing windows builds');
    await page.goto(siteUrl(`agents/${id}`));
    await live(page);
    const notice = page.getByRole('region', { name: 'Quarantined by the registry' });
    await notice.getByText('There is no download of it for Windows, which the registry requires.').waitFor();
    assert.match(await notice.textContent(), /The registry’s words: Missing windows builds/);
  });

  test('the badge shows, and its snippets copy exactly', async () => {
    const gemini = agent('gemini');
    await page.goto(siteUrl('agents/gemini#badge'));
    await live(page);
    const section = page.getByRole('region', { name: /^Badge/ });
    const image = section.getByRole('img', { name: `Gemini CLI on the ACP Registry: v${gemini.version}` });
    await image.waitFor();
    assert.ok(await image.evaluate((img) => img.complete && img.naturalWidth > 40), 'the badge image loaded');
    const origin = 'https://agentclientprotocol.com';
    const markdown = `[![Gemini CLI on the ACP Registry](${origin}/badge/gemini.svg)](${origin}/agents/gemini/)`;
    assert.equal(await snippet(page, 'Markdown').textContent(), markdown);
    await section.getByRole('button', { name: /^Copy Markdown/ }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), markdown);
    await section.getByRole('button', { name: /^Copy reStructuredText/ }).click();
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      `.. image:: ${origin}/badge/gemini.svg\n   :target: ${origin}/agents/gemini/\n   :alt: Gemini CLI on the ACP Registry`,
    );
    const html = await snippet(page, 'HTML').textContent();
    assert.equal(html, `<a href="${origin}/agents/gemini/"><img src="${origin}/badge/gemini.svg" alt="Gemini CLI on the ACP Registry" /></a>`);
  });

  test('without JavaScript the same listings are in the pages', async () => {
    const { context: off, page: plain } = await launch({ javaScriptEnabled: false });
    try {
      await plain.goto(siteUrl());
      assert.equal(await optionCount(plain, 'Health', 'Quarantined'), expected.quarantined);
      assert.equal(await optionCount(plain, 'Listed for', 'Bundled with JetBrains IDEs'), expected.bundled);
      await plain.goto(siteUrl('agents/vtcode/'));
      await plain.getByRole('region', { name: 'Quarantined by the registry' }).waitFor();
      await plain.goto(siteUrl('agents/claude-acp/'));
      await plain.getByRole('tab', { name: 'Preview (unverified)' }).waitFor();
    } finally {
      await off.close();
    }
  });
});
