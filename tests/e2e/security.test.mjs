// The built site under its Content-Security-Policy, and hostile registry data in the browser:
// commands that would leave their folder, invisible characters in arguments, look-alike agents.
// (Every test file fails on any policy violation: see `launch` in helpers.mjs.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { holdWasm, launch, live, siteUrl, subSiteUrl, takeCspViolations } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));

/** The policy a page's `<meta http-equiv="Content-Security-Policy">` gives, by directive. */
function metaPolicy(html) {
  const match = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
  assert.ok(match, 'the page has the policy as a <meta>');
  const content = match[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return Object.fromEntries(
    content.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]),
  );
}

/** The inline scripts a browser runs (no `src`, no data-block `type`), as between their tags. */
function inlineScripts(html) {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\ssrc=/i.test(attributes) && !/type="?application\/(ld\+)?json/i.test(attributes))
    .map(([, , text]) => text);
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** A registry of the bundled agents and `extra`, served in place of the site's own. */
async function withAgents(page, ...extra) {
  const registry = structuredClone(REGISTRY);
  registry.agents.push(...extra);
  await page.route('**/registry.json', (route) => route.fulfill({ json: registry }));
}

const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });

/** An agent named like Gemini CLI with a Cyrillic е, by another publisher. */
const IMPOSTOR = {
  id: 'gemini-cli-pro',
  name: 'G\u0435mini CLI',
  version: '9.9.9',
  description: 'Not the real one.',
  distribution: { npx: { package: 'gemini-pro@9.9.9' } },
};

const PLATFORMS = ['linux-x86_64', 'linux-aarch64', 'darwin-x86_64', 'darwin-aarch64', 'windows-x86_64'];

describe('content security policy', () => {
  test('every page carries the policy: its scripts by hash, nothing inline besides', async () => {
    const { context, page } = await launch();
    try {
      for (const path of ['', 'agents/gemini/', '404.html', 'preview/']) {
        const response = await page.request.get(siteUrl(path));
        assert.equal(response.status(), 200, path);
        const html = await response.text();
        const policy = metaPolicy(html);
        assert.deepEqual(policy['object-src'], ["'none'"], path);
        assert.deepEqual(policy['base-uri'], ["'self'"], path);
        assert.deepEqual(policy['style-src'], ["'self'"], path);
        assert.deepEqual(policy['script-src'].slice(0, 2), ["'self'", "'wasm-unsafe-eval'"], path);
        assert.ok(!html.includes('unsafe-inline'), path);
        const scripts = inlineScripts(html);
        assert.ok(scripts.length >= 1, `${path}: the pages have inline scripts to allow`);
        for (const script of scripts) {
          assert.ok(policy['script-src'].includes(sha256(script)), `${path}: ${script.slice(0, 60)}`);
        }
        // No style attribute: the policy would refuse it.
        assert.doesNotMatch(html, /\sstyle=/, path);
      }
    } finally {
      await context.close();
    }
  });

  test('the build writes the same policy as headers for hosts that read _headers', async () => {
    const { context, page } = await launch();
    try {
      const meta = metaPolicy(await (await page.request.get(siteUrl())).text());
      const response = await page.request.get(siteUrl('_headers'));
      assert.equal(response.status(), 200);
      const [pages, icons] = (await response.text()).split(/\n\n/);
      const header = pages.match(/^\/\*\n  Content-Security-Policy: (.*)$/m);
      assert.ok(header, pages);
      const policy = Object.fromEntries(
        header[1].split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]),
      );
      // The header also forbids framing, which a <meta> cannot; the rest is the page's policy.
      assert.deepEqual(policy['frame-ancestors'], ["'none'"]);
      delete policy['frame-ancestors'];
      assert.deepEqual(policy, meta);
      assert.match(icons, /^\/\*\.svg\n  Content-Security-Policy: .*script-src 'none'/);
    } finally {
      await context.close();
    }
  });

  test('icons are drawn with no style attribute, and the policy is enforced and watched', async () => {
    const { context, page } = await launch();
    try {
      // The page as built, the app held back: the mask comes from icons.css, which the start-up
      // script applies once the page has been painted.
      const release = await holdWasm(page);
      await page.goto(siteUrl(), { waitUntil: 'load' });
      const first = page.locator('.icon-mask').first();
      await first.evaluate((e) =>
        new Promise((drawn) => {
          const check = () => (getComputedStyle(e).maskImage.startsWith('url(') ? drawn() : requestAnimationFrame(check));
          check();
        }),
      );
      assert.match(await first.evaluate((e) => getComputedStyle(e).maskImage), /^url\(/);
      release();
      await live(page);
      // The app's own cards: the mask set through the CSSOM (in an effect, once mounted).
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.icon-mask')].every((e) => getComputedStyle(e).maskImage.startsWith('url(')),
      ).catch(() => {});
      const masks = await page.locator('.icon-mask').evaluateAll((all) => all.map((e) => getComputedStyle(e).maskImage));
      assert.ok(masks.length > 10, `${masks.length} icons`);
      assert.ok(masks.every((m) => m.startsWith('url(')), masks.find((m) => !m.startsWith('url(')));
      assert.deepEqual(takeCspViolations(context), []);
    } finally {
      await context.close();
    }
    // What the policy refuses is refused, and the suite's watch fails the browser it happened in.
    const refused = await launch();
    await refused.page.goto(siteUrl());
    await live(refused.page);
    await refused.page.evaluate(() => document.body.setAttribute('style', 'background-color: rgb(255, 0, 0)'));
    assert.notEqual(await refused.page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 0, 0)');
    await assert.rejects(refused.context.close(), /style-src-attr refused inline/);
  });
});

/** The settings block the build wrote into a page. */
function settingsOf(html) {
  const match = html.match(/<script type="application\/json" id="acp-settings">([^<]*)<\/script>/);
  assert.ok(match, 'the page carries its settings');
  return JSON.parse(match[1]);
}

describe('settings', () => {
  test('each site reads its settings from its pages, and both run the same compiled wasm', async () => {
    const { context, page } = await launch();
    try {
      const root = await (await page.request.get(siteUrl('agents/gemini/'))).text();
      const sub = await (await page.request.get(subSiteUrl('agents/gemini/'))).text();
      assert.equal(settingsOf(root).publicUrl, '/');
      assert.equal(settingsOf(sub).publicUrl, '/acp/registry/');
      for (const settings of [settingsOf(root), settingsOf(sub)]) {
        assert.equal(settings.kind, 'acp');
        assert.equal(settings.registryUrl, 'registry.json');
      }
      const wasm = (html) => html.match(/acp-catalog-[0-9a-f]+_bg\.wasm/)?.[0];
      assert.ok(wasm(root), 'the page names its wasm');
      assert.equal(wasm(sub), wasm(root), 'one compiled wasm for both configurations');
      // The sub site's links are under its public URL, rendered from its settings.
      await page.goto(subSiteUrl('agents/gemini/'));
      await live(page);
      const home = page.getByRole('link', { name: 'ACP Agent Registry' });
      assert.equal(new URL(await home.evaluate((a) => a.href)).pathname, '/acp/registry/');
    } finally {
      await context.close();
    }
  });

  test('the address cannot choose the registry', async () => {
    const { context, page } = await launch();
    try {
      const asked = [];
      page.on('request', (request) => asked.push(request.url()));
      await page.goto(siteUrl('?registryUrl=https://evil.example/registry.json&registry_url=https://evil.example/r.json#registryUrl=https://evil.example/h.json'));
      await live(page);
      await page.getByText(`${REGISTRY.agents.length} agents`, { exact: true }).waitFor();
      assert.deepEqual(asked.filter((url) => new URL(url).hostname === 'evil.example'), []);
    } finally {
      await context.close();
    }
  });

  for (const [what, change, reason] of [
    ['unreadable', (block) => block.replace(/\}$/, ''), /the site's settings \(<script id="acp-settings">\) cannot be read: .*build the site again with `cargo xtask dist`/],
    ['with an unknown setting', (block) => block.replace('{', '{"registryUrI":"https://evil.example/r.json",'), /cannot be read: unknown field `registryUrI`/],
    ['for the other registry kind', (block) => block.replace('"kind":"acp"', '"kind":"agentregistry"').replace('"registryUrl":"registry.json"', '"registryUrl":"https://agents.example.com"'), /--registry-kind `agentregistry` is not the kind this site's wasm was built for/],
    ['with a public URL that is not a path', (block) => block.replace('"publicUrl":"/"', '"publicUrl":"https://evil.example/"'), /--public-url `https:\/\/evil\.example\/` must start and end with `\/`/],
  ]) {
    test(`a page whose settings are ${what} stays as built and says why`, async () => {
      const { context, page } = await launch();
      try {
        await page.route(siteUrl('agents/gemini/'), async (route) => {
          const response = await route.fetch();
          const html = (await response.text()).replace(
            /(<script type="application\/json" id="acp-settings">)([^<]*)(<\/script>)/,
            (_, open, block, close) => open + change(block) + close,
          );
          await route.fulfill({ response, body: html });
        });
        await page.goto(siteUrl('agents/gemini/'));
        const alert = page.getByRole('alert').filter({ hasText: 'This page works without its search and live registry' });
        await alert.waitFor();
        assert.match(await alert.textContent(), reason);
        // The page the build wrote is still there, readable, and never taken over.
        await page.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
        assert.equal(await page.locator('#app[data-prerendered]').count(), 1);
      } finally {
        await context.close();
      }
    });
  }
});

describe('hostile registry data', () => {
  test('a binary whose cmd leaves the install folder gets no command, and the reason', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      const binary = Object.fromEntries(
        PLATFORMS.map((p) => [p, { archive: `https://example.com/escape-${p}`, cmd: '../../../../.bashrc' }]),
      );
      await withAgents(page, {
        id: 'escape',
        name: 'Escape',
        version: '1.0.0',
        description: 'Its cmd points outside the install folder.',
        distribution: { binary },
      });
      await page.goto(siteUrl('agents/escape/'));
      await live(page);
      const run = page.locator('#run');
      const reason = run.getByRole('note');
      await reason.waitFor();
      assert.match(await reason.textContent(), /cmd "\.\.\/\.\.\/\.\.\/\.\.\/\.bashrc" .*outside the install folder/);
      assert.equal(await run.locator('pre').count(), 0, 'no command is offered');
      assert.doesNotMatch(await page.locator('#editors').textContent(), /bashrc/);
    } finally {
      await context.close();
    }
  });

  test('bidi controls in an argument are shown as escapes with a warning, and copy back exactly', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      const args = ['--safe', '\u202e~ fr- mr && --'];
      await withAgents(page, {
        id: 'bidi',
        name: 'Bidi',
        version: '1.0.0',
        description: 'An argument with a right-to-left override.',
        distribution: { npx: { package: 'demo@1.0.0', args } },
      });
      await page.goto(siteUrl('agents/bidi/#run'));
      await live(page);
      const run = page.locator('#run');
      await run.getByText(/characters you cannot see: .*U\+202E/).waitFor();
      const code = await run.locator('pre').first().textContent();
      assert.ok(!/[\u202a-\u202e\u2066-\u2069]/.test(code), code);
      assert.ok(code.includes("$'\\xe2\\x80\\xae"), code);
      // The text a visitor copies, read by bash: exactly the manifest's arguments.
      assert.match(code, /^npx /);
      const argv = execFileSync('bash', ['-c', `printf '%s\\0' ${code.slice('npx '.length)}`], { encoding: 'utf8' });
      assert.deepEqual(argv.split('\0').slice(0, -1), ['-y', 'demo@1.0.0', ...args]);
    } finally {
      await context.close();
    }
  });

  test('an agent named like another is flagged on its card and its page', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      await withAgents(page, IMPOSTOR);
      await page.goto(siteUrl('?q=gemini'));
      await live(page);
      const impostor = page.getByRole('listitem').filter({ hasText: 'Not the real one.' });
      await impostor.getByText(/looks like Gemini CLI \(gemini\)/).waitFor();
      const original = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Gemini CLI', exact: true }) });
      assert.equal(await original.locator('.lookalike-warnings').count(), 0, 'the original has no warning');
      await page.goto(siteUrl('agents/gemini-cli-pro/'));
      await live(page);
      await page.getByRole('note').filter({ hasText: /looks like Gemini CLI \(gemini\)/ }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('the look-alike warnings the build wrote stay when the app takes the page over', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      // The warnings are found in a worker with a wasm of its own, not in the page's.
      const worker = page.waitForRequest(/acp-lookalikes_loader\.js$/);
      await page.goto(siteUrl(''));
      const notes = page.getByRole('note').filter({ hasText: /Another agent has the same name: deepseek/ });
      const before = await notes.count();
      assert.ok(before >= 2, `the bundled registry's same-named agents are flagged in the HTML (${before})`);
      await live(page);
      await worker;
      assert.equal(await notes.count(), before, 'the live page says the same');
      const card = page.getByRole('listitem').filter({ has: notes.first() });
      await search(page).fill('deepseek');
      await card.first().getByRole('note').first().waitFor();
      assert.ok((await notes.count()) >= 2, 'and so do the results of a search');
    } finally {
      await context.close();
    }
  });

  test('without the look-alike worker the catalogue still goes live and searches, unflagged', async () => {
    const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
    try {
      let asked = 0;
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await context.route(/acp-lookalikes/, (route) => {
        asked += 1;
        return route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' });
      });
      await withAgents(page, IMPOSTOR);
      await page.goto(siteUrl(''));
      await live(page);
      assert.ok(asked >= 1, 'the app asked for the worker');
      await search(page).fill('gemini');
      const impostor = page.getByRole('listitem').filter({ hasText: 'Not the real one.' });
      await impostor.waitFor();
      assert.equal(await impostor.locator('.lookalike-warnings').count(), 0);
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).first().waitFor();
      assert.deepEqual(errors, [], 'a worker that cannot start throws nothing in the page');
    } finally {
      await context.close();
    }
  });
});
