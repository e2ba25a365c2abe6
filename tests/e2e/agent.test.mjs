// Agent pages `/agents/<id>`: facts, run snippets per method and platform, editor configuration,
// copy buttons (read back from the clipboard), the manifest, anchors, and both themes under axe.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { launchForAgentPages, live, siteUrl, snippet } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));
const agent = (id) => REGISTRY.agents.find((a) => a.id === id);

async function openAgent(page, id, hash = '') {
  await page.goto(siteUrl(`agents/${id}${hash}`));
  await live(page);
  await page.getByRole('heading', { level: 1, name: agent(id).name }).waitFor();
}

describe('agent pages', () => {
  let context;
  let page;
  before(async () => {
    ({ context, page } = await launchForAgentPages());
  });
  after(async () => context.close());

  test('the header shows the facts, safe links and the edit link', async () => {
    await openAgent(page, 'gemini');
    const gemini = agent('gemini');
    await page.getByText(gemini.description).first().waitFor();
    assert.match(await page.title(), /^Gemini CLI · /);
    const repo = page.getByRole('link', { name: gemini.repository });
    assert.equal(await repo.getAttribute('rel'), 'noopener noreferrer');
    const edit = page.getByRole('link', { name: 'Edit this listing' });
    assert.equal(await edit.getAttribute('href'), 'https://github.com/agentclientprotocol/registry/blob/main/gemini/agent.json');
    const description = await page.locator('meta[name=description]').last().getAttribute('content');
    assert.equal(description, gemini.description);
  });

  test('a link to an internationalised host says the host the browser will visit', async () => {
    const registry = structuredClone(REGISTRY);
    // A Cyrillic "а" in the host: the browser visits xn--pple-43d.com, not apple.com.
    registry.agents.find((a) => a.id === 'gemini').repository = 'https://\u0430pple.com/gemini';
    const own = await context.newPage();
    try {
      await own.route('**/registry.json', (route) => route.fulfill({ json: registry }));
      await openAgent(own, 'gemini');
      const link = own.getByRole('link', { name: 'https://\u0430pple.com/gemini' });
      await link.waitFor();
      assert.equal(new URL(await link.getAttribute('href')).hostname, 'xn--pple-43d.com');
      assert.equal(await link.locator('xpath=following-sibling::span[1]').textContent(), '(opens xn--pple-43d.com)');
      // An ASCII host says nothing more.
      assert.equal(await own.getByText(/^\(opens /).count(), 1);
    } finally {
      await own.close();
    }
  });

  test('npx: the copied command is exactly the manifest argv, with env on the command', async () => {
    await openAgent(page, 'auggie');
    const auggie = agent('auggie');
    const expected = `AUGMENT_DISABLE_AUTO_UPDATE=1 npx -y ${auggie.distribution.npx.package} --acp`;
    assert.equal(await snippet(page, 'Run').first().textContent(), expected);
    await page.getByText('Needs: Node.js (npx)').first().waitFor();
    const copy = page.getByRole('button', { name: /^Copy Run/ }).first();
    await copy.click();
    await page.getByRole('button', { name: /^Copied Run/ }).first().waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), expected);
  });

  test('copy works from the keyboard too', async () => {
    await openAgent(page, 'gemini');
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('button', { name: /^Copy Run/ }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^Copied Run/ }).first().waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `npx -y ${agent('gemini').distribution.npx.package} --acp`);
  });

  test('uvx agents get uvx with its requirement', async () => {
    await openAgent(page, 'superqode');
    assert.equal(await snippet(page, 'Run').first().textContent(), `uvx ${agent('superqode').distribution.uvx.package} serve acp`);
    await page.getByText('Needs: uv').first().waitFor();
  });

  test('binary agents: the platform switch changes the archive, and a missing build is explained', async () => {
    await openAgent(page, 'goose');
    const goose = agent('goose').distribution.binary;
    const install = snippet(page, 'Install');
    assert.match(await install.textContent(), new RegExp(goose['linux-x86_64'].archive.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.match(await install.textContent(), new RegExp(goose['linux-x86_64'].sha256));
    await page.getByLabel('Your platform').selectOption('darwin-aarch64');
    await page.waitForFunction(() => document.body.textContent.includes('aarch64-apple-darwin'));
    assert.match(await install.textContent(), /aarch64-apple-darwin\.tar\.bz2/);
    await page.getByLabel('Your platform').selectOption('windows-x86_64');
    await page.waitForFunction(() => document.body.textContent.includes('Invoke-WebRequest') || document.body.textContent.includes('No binary for'));
    // The choice is remembered across pages and reloads.
    await openAgent(page, 'kimi');
    assert.equal(await page.getByLabel('Your platform').inputValue(), 'windows-x86_64');
    await page.getByLabel('Your platform').selectOption('darwin-x86_64');
    await page.getByText(/No binary for macOS · x86-64/).waitFor();
    await page.getByLabel('Your platform').selectOption('linux-x86_64');
  });

  test('tabs switch method and editor, with the keyboard too', async () => {
    await openAgent(page, 'argy-code');
    const methods = page.getByRole('tablist', { name: 'Distribution method' });
    const npxTab = methods.getByRole('tab', { name: 'npx' });
    await npxTab.click();
    assert.equal(await npxTab.getAttribute('aria-selected'), 'true');
    assert.match(await snippet(page, 'Run').first().textContent(), /^npx -y /);
    await page.keyboard.press('ArrowLeft');
    const binaryTab = methods.getByRole('tab', { name: 'Binary' });
    assert.equal(await binaryTab.getAttribute('aria-selected'), 'true');
    assert.ok(await binaryTab.evaluate((el) => el === document.activeElement));
    await page.keyboard.press('End');
    assert.equal(await npxTab.getAttribute('aria-selected'), 'true');

    const editors = page.getByRole('tablist', { name: 'Editor' });
    await editors.getByRole('tab', { name: 'JetBrains IDEs' }).click();
    const config = snippet(page, 'JetBrains IDEs');
    const parsed = JSON.parse(await config.textContent());
    const server = Object.values(parsed.agent_servers)[0];
    assert.equal(server.command, 'npx');
    assert.deepEqual(server.args.slice(0, 2), ['-y', agent('argy-code').distribution.npx.package]);
    await page.getByText('~/.jetbrains/acp.json').first().waitFor();
    await editors.getByRole('tab', { name: 'Emacs (agent-shell)' }).click();
    assert.match(await page.getByRole('tabpanel').last().textContent(), /acp-make-client/);
  });

  test('protocol support says what was probed, when, what is not supported and what needs sign-in', async () => {
    await openAgent(page, 'claude-acp', '#protocol');
    const section = page.locator('#protocol');
    // The app adds how long ago that was, by the visitor's clock.
    const listed = agent('claude-acp').version.replaceAll('.', '\\.');
    await section.getByText(new RegExp(`^Probed v0\\.70\\.0 on 2026-08-20 \\((\\d+ (days|months)|today|yesterday)( ago)?\\) \\(the listing is v${listed}\\)\\.$`)).waitFor();
    await section.getByText('It answered with ACP protocol version 1 and reported itself as version 0.70.0.').waitFor();
    const text = await section.textContent();
    assert.match(text, /AuthenticationTerminal login/);
    assert.match(text, /List sessions✓ supported/);
    assert.match(text, /Load session✓ advertised, not confirmed by the probe/);
    assert.match(text, /Set model✗ not supported/);
    // codex-acp's probe was asked to sign in before listing sessions: unknown, not unsupported.
    await openAgent(page, 'codex-acp', '#protocol');
    assert.match(await page.locator('#protocol').textContent(), /List sessions\? could not be checked without signing in/);
    await openAgent(page, 'cortex-code');
    await page.locator('#protocol').getByText(/could not start the agent \(process_error: Extraction failed\).*unknown \(not unsupported\)/).waitFor();
    await openAgent(page, 'acp-bridge');
    await page.locator('#protocol').getByText(/^Not probed/).waitFor();
  });

  test('the manifest shows the raw entry, unknown fields included', async () => {
    // The registry's CI publishes a field outside its format as it is (aider-acp's manifest
    // had `tags`); the page shows it and says so.
    const registry = structuredClone(REGISTRY);
    const claude = registry.agents.find((a) => a.id === 'claude-acp');
    claude.tags = ['cli', 'anthropic'];
    const own = await context.newPage();
    try {
      await own.route('**/registry.json', (route) => route.fulfill({ json: registry }));
      await openAgent(own, 'claude-acp');
      await own.getByText(/Show the registry entry as published \(includes tags\)/).click();
      const json = JSON.parse(await own.locator('#manifest pre code').textContent());
      assert.deepEqual(json, claude);
    } finally {
      await own.close();
    }
  });

  test('section anchors are stable and scrolled to', async () => {
    await openAgent(page, 'gemini', '#editors');
    await page.waitForFunction(() => {
      const top = document.getElementById('editors').getBoundingClientRect().top;
      return top >= 0 && top < 200;
    });
    const link = page.getByRole('link', { name: 'Link to Manifest' });
    assert.equal(await link.getAttribute('href'), '/agents/gemini#manifest');
  });

  test('axe finds no violations on an agent page in both themes', async () => {
    for (const theme of ['light', 'dark']) {
      await page.goto(siteUrl());
      await page.evaluate((t) => localStorage.setItem('acp-theme', t), theme);
      await openAgent(page, 'factory-droid');
      const { violations } = await new AxeBuilder({ page }).analyze();
      assert.deepEqual(violations.map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
    }
  });
});
