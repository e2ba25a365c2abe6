// Every page arrives whole: `cargo xtask dist` renders each page's HTML with the site's own
// components, so it reads and navigates without JavaScript; with JavaScript the app takes it over
// without a visible change, keeps what the visitor did meanwhile, and never takes the content
// away when the live registry cannot be loaded.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { holdWasm, launch, live, siteUrl, subSiteUrl } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));
const TOTAL = REGISTRY.agents.length;
const GEMINI = REGISTRY.agents.find((agent) => agent.id === 'gemini');
const ORIGIN = 'https://agentclientprotocol.com';
/** The results the catalogue renders at first (`PAGE`). */
const PAGE = 48;

const results = (page) => page.getByRole('region', { name: 'Results' }).getByRole('listitem').getByRole('heading');
const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });

/** The live page shows the search "gemini" with the npx filter ticked: in the address, the
 * search box, the checkbox, and results that are all distributed with npx. */
async function showsGeminiWithNpx(page) {
  await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('q'), 'gemini');
  assert.equal(url.searchParams.get('dist'), 'npx');
  assert.equal(await search(page).inputValue(), 'gemini');
  assert.ok(await page.getByRole('checkbox', { name: /npx/ }).isChecked());
  const badges = await page
    .getByRole('region', { name: 'Results' })
    .getByRole('list', { name: 'Distribution' })
    .allTextContents();
  assert.ok(badges.length > 0 && badges.length < PAGE, `${badges.length} results`);
  assert.deepEqual(badges.filter((b) => !b.includes('npx')), []);
}

async function fetchHtml(url) {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('without JavaScript', () => {
  let context;
  let page;
  before(async () => ({ context, page } = await launch({ javaScriptEnabled: false })));
  after(async () => context.close());

  test('the catalogue lists its first page of agents, with links and counts', async () => {
    await page.goto(siteUrl());
    await page.getByRole('heading', { level: 1, name: 'Find an ACP agent' }).waitFor();
    assert.equal(await page.title(), 'ACP Agent Registry');
    assert.equal(await page.getByRole('status').filter({ hasText: /agents$/ }).textContent(), `${TOTAL} agents`);
    assert.equal(await results(page).count(), PAGE);
    // Beside the search box, it says that search needs JavaScript, and the failed-start line is not shown.
    assert.ok(await page.getByText('Search, filters and sorting need JavaScript. Every agent listed below is a link to its page.').isVisible());
    assert.equal(await page.getByText('could not start').isVisible(), false);
    const uvx = REGISTRY.agents.filter((a) => a.distribution.uvx).length;
    assert.match(await page.getByText(/^uvx \(Python\)/).locator('..').textContent(), new RegExp(`${uvx}$`));
    // Each card's name is a link to its page, which exists.
    const first = page.getByRole('region', { name: 'Results' }).getByRole('link').first();
    const name = await first.textContent();
    await first.click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/agents\/[^/]+\/$/);
  });

  test("the system's theme applies, dark or light", async () => {
    const backgrounds = {};
    for (const colorScheme of ['light', 'dark']) {
      const { context } = await launch({ javaScriptEnabled: false, colorScheme });
      try {
        const themed = context.pages()[0];
        await themed.goto(siteUrl('agents/gemini/'));
        await themed.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
        backgrounds[colorScheme] = await themed.evaluate(() => getComputedStyle(document.body).backgroundColor);
      } finally {
        await context.close();
      }
    }
    assert.equal(backgrounds.light, 'rgb(255, 255, 255)');
    assert.notEqual(backgrounds.dark, backgrounds.light, 'a dark system gets the dark theme');
  });

  test('an agent page shows its run command and editor snippets', async () => {
    await page.goto(siteUrl('agents/gemini/'));
    const heading = page.getByRole('heading', { level: 1 });
    assert.equal(await heading.textContent(), 'Gemini CLI');
    assert.equal(await page.title(), 'Gemini CLI · ACP Agent Registry');
    const npx = GEMINI.distribution.npx;
    const run = page.locator('#run pre code').first();
    assert.equal(await run.textContent(), `npx -y ${npx.package} ${npx.args.join(' ')}`);
    await page.getByRole('heading', { level: 2, name: /Add it to your editor/ }).waitFor();
    assert.match(await page.locator('#editors pre code').first().textContent(), /"agent_servers"/);
    await page.getByRole('heading', { level: 2, name: /Protocol support/ }).waitFor();
    await page.getByRole('link', { name: '← All agents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Find an ACP agent' }).waitFor();
  });

  test('an unknown address shows the not-found page, with a 404', async () => {
    const response = await page.goto(siteUrl('nope/'));
    assert.equal(response.status(), 404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(await page.title(), 'Page not found · ACP Agent Registry');
  });
});

describe('pages as served', () => {
  test('an agent page is a 200 with its head tags, written once each', async () => {
    const { status, html } = await fetchHtml(siteUrl('agents/gemini/'));
    assert.equal(status, 200);
    const canonical = `${ORIGIN}/agents/gemini/`;
    for (const expected of [
      '<title>Gemini CLI · ACP Agent Registry</title>',
      `<link href="${canonical}" rel="canonical">`,
      '<meta property="og:title" content="Gemini CLI">',
      `<meta property="og:url" content="${canonical}">`,
      '<meta name="twitter:card" content="summary_large_image">',
      `<meta property="og:image" content="${ORIGIN}/og/gemini.png">`,
      '<script type="application/ld+json">',
    ]) {
      assert.ok(html.includes(expected), `missing ${expected}`);
    }
    assert.equal(html.match(/<title>/g).length, 1, 'one <title>');
    assert.equal(html.match(/name="description"/g).length, 1, 'one description');
    assert.equal(html.match(/<h1/g).length, 1, 'one <h1>');
    assert.match(html, /<script type=module>/, 'the app still loads');
  });

  test('every agent of the registry has a page', async () => {
    const statuses = await Promise.all(
      REGISTRY.agents.map(async (agent) => [agent.id, (await fetch(siteUrl(`agents/${agent.id}/`), { method: 'HEAD' })).status]),
    );
    assert.deepEqual(statuses.filter(([, status]) => status !== 200), []);
  });

  test('the sitemap lists every page, each agent has its badge and link-preview image', async () => {
    const { status, html: sitemap } = await fetchHtml(siteUrl('sitemap.xml'));
    assert.equal(status, 200);
    const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    const { clients } = await (await fetch(siteUrl('clients.json'))).json();
    assert.ok(clients.length > 50);
    assert.deepEqual(
      urls.sort(),
      [
        `${ORIGIN}/`,
        `${ORIGIN}/changes/`,
        `${ORIGIN}/clients/`,
        ...clients.map((c) => `${ORIGIN}/clients/${c.id}/`),
        ...REGISTRY.agents.map((a) => `${ORIGIN}/agents/${a.id}/`),
      ].sort(),
    );
    assert.match((await fetchHtml(siteUrl('robots.txt'))).html, new RegExp(`Sitemap: ${ORIGIN}/sitemap.xml`));
    for (const agent of REGISTRY.agents.slice(0, 10)) {
      const badge = await fetch(siteUrl(`badge/${agent.id}.svg`));
      assert.equal(badge.status, 200);
      assert.match(await badge.text(), new RegExp(`v${agent.version.replace(/\./g, '\\.')}`));
      const image = await fetch(siteUrl(`og/${agent.id}.png`));
      assert.equal(image.headers.get('content-type'), 'image/png');
    }
  });

  test('the address without its trailing slash redirects to it', async () => {
    const { status, headers } = await fetchHtml(siteUrl('agents/gemini'));
    assert.equal(status, 301);
    assert.equal(headers.get('location'), '/agents/gemini/');
  });

  test('the build under /acp/registry/ has canonical URLs and links under it', async () => {
    const { status, html } = await fetchHtml(subSiteUrl('agents/gemini/'));
    assert.equal(status, 200);
    assert.ok(html.includes(`<link href="${ORIGIN}/acp/registry/agents/gemini/" rel="canonical">`), html);
    assert.ok(html.includes('href="/acp/registry/"'), html);
  });

  test('the listing preview arrives as its page', async () => {
    const { status, html } = await fetchHtml(siteUrl('preview/'));
    assert.equal(status, 200);
    assert.ok(html.includes('<title>Preview your listing · ACP Agent Registry</title>'));
    assert.ok(html.includes('<meta name="robots" content="noindex">'));
    assert.match(html, />Preview your listing</);
  });
});

describe('the app takes the page over', () => {
  /** Records every layout shift of the page from its start, as Lighthouse counts them. */
  const recordShifts = () => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // What moved, for the failure message: each node and its boxes before and after.
        const box = (r) => `${r.x},${r.y} ${r.width}x${r.height}`;
        const sources = entry.sources.map((s) => {
          const node = s.node;
          const name = node ? `${node.nodeName.toLowerCase()}${node.id ? `#${node.id}` : ''}.${String(node.className ?? '').split(' ').slice(0, 3).join('.')} "${(node.textContent ?? '').slice(0, 40)}"` : '?';
          return `${name}: ${box(s.previousRect)} -> ${box(s.currentRect)}`;
        });
        window.__shifts.push({ value: entry.value, at: Math.round(entry.startTime), sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  };

  for (const [label, path] of [
    ['the catalogue', ''],
    ['an agent page', 'agents/claude-acp/'],
    ['an agent page under /acp/registry/', null],
  ]) {
    test(`${label}: nothing shifts, one <h1>, the same title`, async () => {
      const { context, page } = await launch({ viewport: { width: 1280, height: 900 } });
      try {
        await page.addInitScript(recordShifts);
        const url = path === null ? subSiteUrl('agents/claude-acp/') : siteUrl(path);
        const response = await page.goto(url);
        assert.equal(response.status(), 200);
        const title = await page.title();
        await live(page);
        await page.waitForTimeout(500);
        const shifts = await page.evaluate(() => window.__shifts);
        assert.deepEqual(shifts.map((s) => s.value), [], `layout shifts: ${JSON.stringify(shifts, null, 1)}`);
        assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
        assert.equal(await page.title(), title);
        assert.equal(await page.locator('head meta[name=description]').count(), 1, 'one description once live');
      } finally {
        await context.close();
      }
    });
  }

  /** The tags of `head` a search engine or a link preview reads, each as `[what, value]`, sorted. */
  const headTags = (head) =>
    [
      ['title', head.querySelector('title')?.textContent ?? null],
      ...[...head.querySelectorAll('meta[name=description], meta[name^="twitter:"], meta[property^="og:"]')].map((m) => [
        m.getAttribute('name') ?? m.getAttribute('property'),
        m.getAttribute('content'),
      ]),
      ...[...head.querySelectorAll('link[rel=canonical]')].map((l) => ['canonical', l.getAttribute('href')]),
      ...[...head.querySelectorAll('script[type="application/ld+json"]')].map((s) => ['json-ld', s.textContent]),
    ].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : String(a[1]).localeCompare(String(b[1]))));

  for (const [label, path] of [
    ['the catalogue', ''],
    ['an agent page', 'agents/gemini/'],
  ]) {
    test(`${label}: once live, the head holds what the build wrote, JSON-LD and link preview included`, async () => {
      const { context, page } = await launch();
      try {
        await page.addInitScript(`window.headTags = ${headTags}`);
        await page.goto(siteUrl(path));
        // The head as the build wrote it, parsed apart from the page the app changes.
        const built = await page.evaluate(async () => {
          const html = await (await fetch(location.href)).text();
          return window.headTags(new DOMParser().parseFromString(html, 'text/html').head);
        });
        await live(page);
        const shown = await page.evaluate(() => window.headTags(document.head));
        assert.ok(built.some(([what]) => what === 'og:title'), `the build wrote link-preview tags: ${JSON.stringify(built)}`);
        if (path) {
          assert.ok(built.some(([what]) => what === 'json-ld'), 'the build wrote JSON-LD');
          assert.ok(built.some(([what]) => what === 'og:image'), 'the build wrote a link-preview image');
        }
        assert.deepEqual(shown, built);
      } finally {
        await context.close();
      }
    });
  }

  test('text typed and a filter ticked before the app is ready are kept and applied', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      await search(page).pressSequentially('gemini');
      // The early search answers the search (tests/e2e/early.test.mjs); the filter waits for the app.
      await page.getByRole('link', { name: 'Gemini CLI', exact: true }).waitFor();
      assert.ok(await results(page).count() < PAGE);
      await page.getByRole('checkbox', { name: /npx/ }).check();
      release();
      await live(page);
      await showsGeminiWithNpx(page);
    } finally {
      await context.close();
    }
  });

  test('what is typed and ticked while the live page is being built is done again on it', async () => {
    // The typing must land while the live page is being built, a window of a few hundred
    // milliseconds that a busy machine can make the test miss: it tries three times to land in
    // it, and the behaviour is checked on the try that did.
    for (let attempt = 1; ; attempt++) {
      const { context, page } = await launch();
      try {
        // Slower than a phone, so that the build, in slices, lasts long enough to type into
        // even when other tests share the machine.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 12 });
        await page.goto(siteUrl());
        await page.waitForFunction(() => performance.getEntriesByName('acp:take-over-start').length > 0, null, { polling: 5 });
        await search(page).fill('gemini');
        await page.getByRole('checkbox', { name: /npx/ }).check();
        const during = await page.evaluate(() => performance.getEntriesByName('acp:taken-over').length === 0);
        if (!during) {
          assert.ok(attempt < 3, 'typed and ticked while the live page was being built, in none of three tries');
          continue;
        }
        await live(page);
        await page.waitForFunction(() => new URL(location.href).searchParams.get('dist') === 'npx');
        await showsGeminiWithNpx(page);
        return;
      } finally {
        await context.close();
      }
    }
  });

  test('the focused search box keeps the focus and what is typed next', async () => {
    const { context, page } = await launch();
    try {
      const release = await holdWasm(page);
      await page.goto(siteUrl());
      await search(page).pressSequentially('clau');
      release();
      await live(page);
      assert.ok(await search(page).evaluate((box) => box === document.activeElement), 'still focused');
      await page.keyboard.type('de');
      await page.getByRole('link', { name: 'Claude Agent', exact: true }).waitFor();
      assert.equal(await search(page).inputValue(), 'claude');
    } finally {
      await context.close();
    }
  });

  test('a live registry that differs from the build is what shows once loaded', async () => {
    const { context, page } = await launch();
    try {
      const changed = structuredClone(REGISTRY);
      const renamed = changed.agents.find((a) => a.id === 'gemini');
      renamed.name = 'Gemini CLI (renamed live)';
      changed.agents.push({ ...structuredClone(renamed), id: 'aaa-new-agent', name: 'AAA New Agent' });
      await page.route('**/registry.json', (route) => route.fulfill({ json: changed }));
      await page.goto(siteUrl());
      await live(page);
      await page.getByText(`${TOTAL + 1} agents`).waitFor();
      await page.getByRole('link', { name: 'AAA New Agent' }).waitFor();
      await page.goto(siteUrl('agents/gemini/'));
      await live(page);
      await page.getByRole('heading', { level: 1, name: 'Gemini CLI (renamed live)' }).waitFor();
      assert.equal(await page.title(), 'Gemini CLI (renamed live) · ACP Agent Registry');
    } finally {
      await context.close();
    }
  });

  test('an address with a query shows the built page, then its results, with no error in between', async () => {
    const { context, page } = await launch();
    try {
      await page.addInitScript(() => {
        window.__alerts = 0;
        new MutationObserver(() => {
          if (document.querySelector('[role=alert]')) window.__alerts += 1;
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(siteUrl('?q=claude&dist=npx'));
      await live(page);
      await page.getByRole('link', { name: 'Claude Agent', exact: true }).waitFor();
      assert.equal(await search(page).inputValue(), 'claude');
      assert.ok((await results(page).count()) < PAGE);
      assert.equal(await page.evaluate(() => window.__alerts), 0);
    } finally {
      await context.close();
    }
  });

  test('when the registry fails, the built page stays with a notice, and Retry takes over', async () => {
    const { context, page } = await launch();
    try {
      let fail = true;
      await page.route('**/registry.json', (route) =>
        fail ? route.fulfill({ status: 503, body: 'down' }) : route.fallback(),
      );
      await page.goto(siteUrl('agents/gemini/'));
      const notice = page.getByRole('alert');
      await notice.getByText(/HTTP 503/).waitFor();
      assert.match(await notice.textContent(), /as it was when the site was built/);
      // The page as built is all still there: the run command included.
      const npx = GEMINI.distribution.npx;
      assert.equal(await page.locator('#run pre code').first().textContent(), `npx -y ${npx.package} ${npx.args.join(' ')}`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Gemini CLI');
      fail = false;
      await notice.getByRole('button', { name: 'Retry' }).click();
      await live(page);
      assert.equal(await page.getByRole('alert').count(), 0, 'the notice goes');
      await page.getByRole('tab', { name: 'npx' }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('when the wasm cannot be loaded, the built page stays and says, beside the search box, what does not work', async () => {
    const { context, page } = await launch();
    try {
      await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'missing' }));
      await page.goto(siteUrl());
      const notice = page.getByRole('status').filter({ hasText: 'could not start' });
      await notice.waitFor();
      assert.match(await notice.textContent(), /^Search, filters and sorting could not start: .* Every agent listed below is a link to its page\./);
      // Beside the search box: right below it, before the filters and results.
      const [box, said] = await Promise.all([search(page).boundingBox(), notice.boundingBox()]);
      assert.ok(said.y >= box.y + box.height && said.y - (box.y + box.height) < 40, `${JSON.stringify(box)} ${JSON.stringify(said)}`);
      assert.ok(await page.getByRole('heading', { level: 1, name: 'Find an ACP agent' }).isVisible());
      assert.equal(await results(page).count(), PAGE);
      assert.equal(await page.getByText('need JavaScript').isVisible(), false, 'the page has JavaScript');
      // The links still do what they say.
      const first = page.getByRole('region', { name: 'Results' }).getByRole('link').first();
      const name = await first.textContent();
      await first.click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('while the app loads and once it is live, the notice for a failed start takes no room', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(siteUrl());
      const hidden = () => page.locator('[data-app-failed]').evaluateAll((all) => all.map((n) => n.hidden && n.getBoundingClientRect().height === 0));
      assert.deepEqual(await hidden(), [true]);
      await live(page);
      assert.deepEqual(await hidden(), [true]);
      assert.equal(await page.getByText('could not start').isVisible(), false);
      assert.equal(await page.getByText('need JavaScript').isVisible(), false);
    } finally {
      await context.close();
    }
  });
});
