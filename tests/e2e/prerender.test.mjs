// Pre-rendered entry pages: `cargo xtask dist` writes `agents/<id>/index.html` for every entry, so
// an agent's address answers 200 without JavaScript, carries link-preview tags, and the app takes
// over when it loads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { launch, siteUrl, subSiteUrl } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));
const GEMINI = REGISTRY.agents.find((agent) => agent.id === 'gemini');
const ORIGIN = 'https://agentclientprotocol.com';

/** Text as the pre-rendered HTML writes it (registry data is always escaped). */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

async function fetchHtml(url) {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('pre-rendered pages without JavaScript', () => {
  test('an agent page is a 200 with its facts, preview tags and run command', async () => {
    const { status, html } = await fetchHtml(siteUrl('agents/gemini/'));
    assert.equal(status, 200);
    const canonical = `${ORIGIN}/agents/gemini/`;
    for (const expected of [
      '<title>Gemini CLI · ACP Agent Registry</title>',
      `<meta name="description" content="${escapeHtml(GEMINI.description)}">`,
      `<link rel="canonical" href="${canonical}">`,
      '<meta property="og:title" content="Gemini CLI">',
      `<meta property="og:url" content="${canonical}">`,
      '<meta name="twitter:card" content="summary">',
      '>Gemini CLI</h1>',
      escapeHtml(GEMINI.description),
      `npx -y ${GEMINI.distribution.npx.package} ${GEMINI.distribution.npx.args.join(' ')}`,
      `href="${GEMINI.repository}" rel="noopener noreferrer"`,
    ]) {
      assert.ok(html.includes(expected), `missing ${expected}`);
    }
    assert.equal(html.match(/<title>/g).length, 1, 'one <title>');
    assert.equal(html.match(/name="description"|name=description/g).length, 1, 'one description');
    assert.match(html, /<script type=module>/, 'the app still loads');
  });

  test('every agent of the registry has a page', async () => {
    const statuses = await Promise.all(
      REGISTRY.agents.map(async (agent) => [agent.id, (await fetch(siteUrl(`agents/${agent.id}/`), { method: 'HEAD' })).status]),
    );
    assert.deepEqual(statuses.filter(([, status]) => status !== 200), []);
  });

  test('the address without its trailing slash redirects to it', async () => {
    const { status, headers } = await fetchHtml(siteUrl('agents/gemini'));
    assert.equal(status, 301);
    assert.equal(headers.get('location'), '/agents/gemini/');
  });

  test('the build under /acp/registry/ has canonical URLs and links under it', async () => {
    const { status, html } = await fetchHtml(subSiteUrl('agents/gemini/'));
    assert.equal(status, 200);
    assert.ok(html.includes(`<link rel="canonical" href="${ORIGIN}/acp/registry/agents/gemini/">`), html);
    assert.ok(html.includes('href="/acp/registry/">← All agents</a>'), html);
  });

  test('an unknown id is still the 404 fallback', async () => {
    const { status, html } = await fetchHtml(siteUrl('agents/no-such-agent/'));
    assert.equal(status, 404);
    assert.ok(!html.includes('id="prerendered"'));
    assert.ok(html.includes('<title>ACP Agent Registry</title>'));
  });

  test('a browser without JavaScript shows the agent', async () => {
    const { context, page } = await launch({ javaScriptEnabled: false });
    try {
      await page.goto(siteUrl('agents/gemini/'));
      const heading = page.getByRole('heading', { level: 1 });
      assert.equal(await heading.textContent(), 'Gemini CLI');
      assert.ok(await heading.isVisible());
      assert.equal(await page.title(), 'Gemini CLI · ACP Agent Registry');
      assert.match(await page.locator('pre code').textContent(), /^npx -y @google\/gemini-cli@/);
      const home = page.getByRole('link', { name: '← All agents' });
      assert.equal(await home.getAttribute('href'), '/');
    } finally {
      await context.close();
    }
  });
});

describe('the app takes over a pre-rendered page', () => {
  let context;
  let page;
  before(async () => ({ context, page } = await launch()));
  after(async () => context.close());

  for (const [label, url] of [
    ['at /', () => siteUrl('agents/claude-acp/')],
    ['under /acp/registry/', () => subSiteUrl('agents/claude-acp/')],
  ]) {
    test(`${label}: one <h1>, the app's, and the static copy gone`, async () => {
      const response = await page.goto(url());
      assert.equal(response.status(), 200);
      // The app's own section, which the static copy does not have.
      await page.getByRole('heading', { level: 2, name: /Add it to your editor/ }).waitFor();
      assert.equal(await page.locator('#prerendered').count(), 0);
      const headings = page.getByRole('heading', { level: 1 });
      assert.equal(await headings.count(), 1);
      assert.equal(await headings.textContent(), 'Claude Agent');
      assert.equal(await page.getByRole('heading', { level: 2, name: /Run it/ }).count(), 1);
      assert.equal(await page.title(), 'Claude Agent · ACP Agent Registry');
    });
  }

  test('an unknown id shows the app\'s not-found page', async () => {
    const response = await page.goto(siteUrl('agents/no-such-agent/'));
    assert.equal(response.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Agent not found' }).waitFor();
    const other = await page.goto(siteUrl('no/such/page'));
    assert.equal(other.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  });
});
