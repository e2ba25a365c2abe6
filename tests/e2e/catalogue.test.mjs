// The catalogue page `/`, driven as a person would: by roles, labels and visible text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { APP_WASM, holdWasm, launch, live, siteUrl, subSiteUrl } from './helpers.mjs';

const REGISTRY = JSON.parse(readFileSync(new URL('../../public/registry.json', import.meta.url), 'utf8'));
const TOTAL = REGISTRY.agents.length;
const count = (page) => page.getByText(/^\d+ agents?$/);
const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });
const results = (page) => page.getByRole('region', { name: 'Results' }).getByRole('listitem').getByRole('heading');
const countOf = async (page) => Number((await count(page).textContent()).split(' ')[0]);
/** Resolves once the page has been idle twice (the catalogue's idle work has had its turns). */
const idle = (page) => page.evaluate(() => new Promise((done) => requestIdleCallback(() => requestIdleCallback(done))));
/** The results the catalogue renders at first and adds each time the list grows (`PAGE`). */
const PAGE = 48;

async function open(page, path = '') {
  await page.goto(siteUrl(path));
  await live(page);
  await count(page).waitFor();
}

describe('catalogue', () => {
  let context;
  let page;
  before(async () => ({ context, page } = await launch()));
  after(async () => context.close());

  test('shows every agent of the bundled registry with a count', async () => {
    await open(page);
    assert.equal(await count(page).textContent(), `${TOTAL} agents`);
    assert.equal(await page.title(), 'ACP Agent Registry');
    const first = results(page).first();
    assert.match(await first.textContent(), /\S/);
  });

  test('typing filters on every keystroke and highlights the match', async () => {
    await open(page);
    await search(page).pressSequentially('gemini');
    await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
    assert.ok((await countOf(page)) < TOTAL);
    assert.equal(await results(page).first().textContent(), 'Gemini CLI');
    const marked = await page.locator('mark').first().textContent();
    assert.equal(marked.toLowerCase(), 'gemini');
    assert.match(page.url(), /[?&]q=gemini/);
    // The tab's title names the search (a frame after the keystroke), and the site alone once cleared.
    await page.waitForFunction(() => document.title === '“gemini” · ACP Agent Registry');
    await search(page).fill('');
    await page.waitForFunction(() => document.title === 'ACP Agent Registry');
  });

  test('a typo still finds the agent', async () => {
    await open(page, '?q=gemni');
    assert.equal(await search(page).inputValue(), 'gemni');
    await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
    await open(page, '?q=opnecode');
    await page.getByRole('link', { name: 'OpenCode' }).waitFor();
  });

  test('facets narrow the results and their counts follow', async () => {
    await open(page);
    const uvx = page.getByRole('checkbox', { name: /uvx/ });
    const uvxCount = REGISTRY.agents.filter((a) => a.distribution.uvx).length;
    assert.match(await page.getByText(/^uvx \(Python\)/).locator('..').textContent(), new RegExp(`${uvxCount}$`));
    await uvx.check();
    await page.getByText(`${uvxCount} agents`).waitFor();
    assert.match(page.url(), /dist=uvx/);
    // Counts of other groups now count uvx agents only: every uvx agent runs on Windows.
    // The counts follow the results one frame later.
    const windows = page.getByRole('group', { name: 'Operating system' }).getByText('Windows').locator('..');
    await windows.filter({ hasText: new RegExp(`${uvxCount}$`) }).waitFor();
    assert.match(await windows.textContent(), new RegExp(`${uvxCount}$`));
    // The same group stays disjunctive: npx keeps its own count.
    const npxCount = REGISTRY.agents.filter((a) => a.distribution.npx).length;
    const npx = page.getByRole('group', { name: 'Distribution' }).getByText('npx (Node.js)').locator('..');
    assert.match(await npx.textContent(), new RegExp(`${npxCount}$`));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(`${TOTAL} agents`).waitFor();
  });

  test('probed capabilities and auth methods are facets, with a not-probed bucket', async () => {
    const matrix = JSON.parse(readFileSync(new URL('../../public/protocol-matrix.json', import.meta.url), 'utf8'));
    const listed = new Set(REGISTRY.agents.map((a) => a.id));
    const loadSession = matrix.agents.filter(
      (a) => listed.has(a.id) && a.initialize.status === 'success' && a.capabilities.loadSession,
    ).length;
    await open(page);
    const caps = page.getByRole('group', { name: 'Capabilities (probed)' });
    await caps.getByRole('checkbox', { name: /Load session/ }).check();
    await page.getByText(`${loadSession} agents`).waitFor();
    assert.match(page.url(), /cap=load-session/);
    await caps.getByRole('checkbox', { name: /Not probed/ }).check();
    assert.ok((await countOf(page)) > loadSession);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    const auth = page.getByRole('group', { name: 'Authentication (probed)' });
    await auth.getByRole('checkbox', { name: /Terminal login/ }).check();
    assert.ok((await countOf(page)) < TOTAL);
  });

  test('an auth method whose name holds a comma is one filter, in the address and after a reload', async () => {
    const matrix = JSON.parse(readFileSync(new URL('../../public/protocol-matrix.json', import.meta.url), 'utf8'));
    const listed = new Set(REGISTRY.agents.map((a) => a.id));
    const probed = matrix.agents.find((a) => listed.has(a.id) && a.initialize.status === 'success');
    probed.authMethods = ['x,terminal'];
    const { context, page: own } = await launch();
    try {
      await own.route('**/protocol-matrix.json', (route) => route.fulfill({ json: matrix }));
      await open(own);
      const auth = own.getByRole('group', { name: 'Authentication (probed)' });
      await auth.getByRole('checkbox', { name: /^x,terminal/ }).check();
      await own.getByText(/^1 agent$/).waitFor();
      assert.match(own.url(), /[?&]auth=x%2Cterminal(&|$)/);
      const name = REGISTRY.agents.find((a) => a.id === probed.id).name;
      assert.equal(await results(own).first().textContent(), name);
      await own.reload();
      await live(own);
      await own.getByText(/^1 agent$/).waitFor();
      assert.ok(await auth.getByRole('checkbox', { name: /^x,terminal/ }).isChecked());
      assert.equal(await results(own).first().textContent(), name);
    } finally {
      await context.close();
    }
  });

  test('the URL is the state: reload and back/forward restore it', async () => {
    await open(page);
    await search(page).fill('claude');
    await page.getByRole('checkbox', { name: /npx/ }).check();
    const filtered = await count(page).textContent();
    const url = page.url();
    assert.match(url, /q=claude/);
    assert.match(url, /dist=npx/);
    await page.reload();
    // The page the build rendered is the unfiltered one: the state is the app's to restore.
    await live(page);
    await count(page).waitFor();
    assert.equal(await search(page).inputValue(), 'claude');
    assert.ok(await page.getByRole('checkbox', { name: /npx/ }).isChecked());
    assert.equal(await count(page).textContent(), filtered);
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes('dist=npx'));
    // The boxes follow the results one frame later, with the counts.
    await page.getByRole('checkbox', { name: /npx/, checked: false }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: /npx/ }).isChecked(), false);
    assert.equal(await search(page).inputValue(), 'claude');
    await page.goForward();
    await page.waitForURL(/dist=npx/);
    await page.getByRole('checkbox', { name: /npx/, checked: true }).waitFor();
    assert.ok(await page.getByRole('checkbox', { name: /npx/ }).isChecked());
  });

  test('the address follows the search box, and going back right after a keystroke leaves the entry gone back to as it was', async () => {
    await open(page, '?q=claude');
    await page.getByRole('checkbox', { name: /npx/ }).check();
    await page.waitForURL(/dist=npx/);
    // A keystroke and Back in the same task: the keystroke's address is not written yet.
    await page.evaluate(() => {
      const box = document.querySelector('input[type=search]');
      box.value = 'claudex';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      history.back();
    });
    await page.waitForURL((u) => !u.search.includes('dist=npx'));
    await page.evaluate(() => new Promise((frame) => requestAnimationFrame(() => setTimeout(frame, 50))));
    assert.equal(new URL(page.url()).search, '?q=claude');
    assert.equal(await search(page).inputValue(), 'claude');
    await search(page).fill('gemini');
    await page.waitForURL(/q=gemini/);
    // Typed and left at once, for a page outside the app: the search is in the entry come back to.
    await page.evaluate(() => {
      const box = document.querySelector('input[type=search]');
      box.value = 'gemini cli';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      location.href = '/preview/';
    });
    await page.waitForURL(/\/preview\//);
    await page.goBack();
    await page.waitForURL(/q=gemini/);
    assert.equal(new URL(page.url()).search, '?q=gemini+cli');
  });

  test('sorting by name orders the results alphabetically', async () => {
    await open(page, '?sort=name');
    const names = await results(page).allTextContents();
    const sorted = [...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
    assert.deepEqual(names.map((n) => n.toLowerCase()), sorted.map((n) => n.toLowerCase()));
    assert.equal(await page.getByLabel('Sort').inputValue(), 'name');
  });

  test('slash focuses the search box and Escape clears it', async () => {
    await open(page, '?q=kiro');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    assert.ok(await search(page).evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Escape');
    assert.equal(await search(page).inputValue(), '');
    await page.getByText(`${TOTAL} agents`).waitFor();
  });

  test('no match shows an empty state that clears the search', async () => {
    await open(page, '?q=zzqqxxnothing');
    await page.getByText('No agents match “zzqqxxnothing”.').waitFor();
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await page.getByText(`${TOTAL} agents`).waitFor();
    assert.equal(await search(page).inputValue(), '');
  });

  test('the list grows as the visitor scrolls', async () => {
    await open(page);
    // "Show more" appears once the first page of results is whole.
    const more = page.getByRole('button', { name: /Show more/ });
    await more.waitFor();
    const shown = await results(page).count();
    assert.equal(shown, PAGE, `renders ${shown} of ${TOTAL} at first`);
    await more.scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => document.querySelectorAll('section[aria-label=Results] h2').length > n, shown);
  });

  test('the page opens with its whole first page of results, and keeps it in every frame while it goes live', async () => {
    const { context, page } = await launch();
    try {
      // Every frame from the end of parsing until a while after the app has taken over: the
      // results' count, how many cards there are, and whether the page is live yet.
      await page.addInitScript(() => {
        window.__frames = [];
        const sample = () => {
          if (document.readyState !== 'loading') {
            window.__frames.push({
              status: document.querySelector('section[aria-label=Results] [role=status]')?.textContent ?? '',
              cards: document.querySelectorAll('section[aria-label=Results] li h2').length,
              live: !document.querySelector('#app[data-prerendered]'),
            });
          }
          if (window.__frames.filter((f) => f.live).length < 10) requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      await page.goto(siteUrl());
      await page.waitForFunction(() => window.__frames.filter((f) => f.live).length >= 10);
      const frames = await page.evaluate(() => window.__frames);
      for (const [i, frame] of frames.entries()) {
        assert.match(frame.status, /^\d+ agents$/, `frame ${i} shows the count`);
        assert.equal(frame.cards, PAGE, `frame ${i} (${frame.live ? 'live' : 'as built'}) has the whole first page`);
      }
      await page.getByRole('button', { name: /Show more/ }).waitFor();
      assert.equal(await results(page).count(), PAGE);
    } finally {
      await context.close();
    }
  });

  test('a keystroke paints the first screen of results in the next frame, the rest of the page after it', async () => {
    await open(page);
    await page.getByRole('button', { name: /Show more/ }).waitFor();
    const before = await results(page).allTextContents();
    const inNextFrame = await page.evaluate(async () => {
      const box = document.querySelector('input[type=search]');
      box.value = 'a';
      box.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((frame) => requestAnimationFrame(frame));
      const headings = [...document.querySelectorAll('section[aria-label=Results] h2')];
      return {
        names: headings.filter((h) => h.checkVisibility()).map((h) => h.textContent),
        unseen: headings.filter((h) => !h.checkVisibility()).map((h) => h.textContent),
        // Whether a link of the hidden page can take the focus (it must not).
        focusable: (() => {
          const link = headings.find((h) => !h.checkVisibility())?.querySelector('a');
          link?.focus();
          return link !== undefined && document.activeElement === link;
        })(),
        status: document.querySelector('section[aria-label=Results] [role=status]').textContent,
      };
    });
    const total = Number(inNextFrame.status.split(' ')[0]);
    assert.ok(total > PAGE, `“a” matches more than a page (${total})`);
    assert.ok(inNextFrame.names.length > 0 && inNextFrame.names.length < PAGE, `${inNextFrame.names.length} cards in the next frame`);
    // The previous page waits, hidden, to be dropped after that frame: none of it is seen or
    // can be reached with the keyboard.
    assert.deepEqual(inNextFrame.unseen, before, 'the previous page is hidden in that frame');
    assert.equal(inNextFrame.focusable, false, 'the previous page cannot take the focus in that frame');
    await page.getByRole('button', { name: /Show more/ }).waitFor();
    const whole = await results(page).allTextContents();
    assert.equal(whole.length, PAGE);
    assert.deepEqual(whole.slice(0, inNextFrame.names.length), inNextFrame.names, 'the first cards stay where they were painted');
    // Every card on screen once the page is whole was painted in that frame.
    const onScreen = await page.evaluate(() =>
      [...document.querySelectorAll('section[aria-label=Results] li h2')]
        .filter((h) => h.closest('li').getBoundingClientRect().top < window.innerHeight)
        .map((h) => h.textContent),
    );
    assert.ok(onScreen.length > 0, 'cards are on screen');
    assert.deepEqual(inNextFrame.names.slice(0, onScreen.length), onScreen, 'the frame after the keystroke showed every card on screen');
    assert.equal(await page.locator('section[aria-label=Results] h2').count(), PAGE, 'the previous page is gone from the document');
  });

  test('at a phone’s size, a keystroke builds the cards that fill its screen, not a desktop’s', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await open(page);
      await page.getByRole('button', { name: /Show more/ }).waitFor();
      const painted = await page.evaluate(async () => {
        const box = document.querySelector('input[type=search]');
        box.value = 'a';
        box.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((frame) => requestAnimationFrame(frame));
        return [...document.querySelectorAll('section[aria-label=Results] h2')].filter((h) => h.checkVisibility()).length;
      });
      await page.getByRole('button', { name: /Show more/ }).waitFor();
      const onScreen = await page.evaluate(
        () =>
          [...document.querySelectorAll('section[aria-label=Results] li h2')].filter(
            (h) => h.closest('li').getBoundingClientRect().top < window.innerHeight,
          ).length,
      );
      assert.ok(painted >= onScreen, `${painted} cards painted, ${onScreen} on screen`);
      assert.ok(painted < 12, `a phone's screen holds fewer cards than a desktop's (${painted} painted)`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  test('while the page is idle the search runs ahead of the first keystroke, once per page load, changing nothing', async () => {
    await open(page);
    const before = { url: page.url(), count: await count(page).textContent(), first: await results(page).allTextContents() };
    const warmUps = () => page.evaluate(() => performance.getEntriesByName('acp:warm-up').length);
    // The queries run one per idle period: wait until no more come.
    await page.waitForFunction(() => performance.getEntriesByName('acp:warm-up').length > 0);
    let ran = await warmUps();
    for (let seen = -1; seen !== ran; ran = await warmUps()) {
      seen = ran;
      await idle(page);
    }
    assert.ok(ran >= 2, `${ran} warm-up queries`);
    assert.deepEqual(
      { url: page.url(), count: await count(page).textContent(), first: await results(page).allTextContents() },
      before,
      'what the page shows is unchanged',
    );
    await results(page).first().getByRole('link').click();
    await page.getByRole('link', { name: '← All agents' }).click();
    await count(page).waitFor();
    await idle(page);
    assert.equal(await warmUps(), ran, 'coming back to the catalogue does not run them again');
    await search(page).pressSequentially('gemini');
    await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
  });

  test('an icon shown once comes back at once, without another probe, when its card is rebuilt', async () => {
    await open(page, '?q=claude');
    const card = (p) => p.getByRole('listitem').filter({ has: p.getByRole('link', { name: 'Claude Agent', exact: true }) });
    await card(page).locator('.icon-mask').waitFor();
    await search(page).fill('zzqqxxnothing');
    await page.getByText('No agents match “zzqqxxnothing”.').waitFor();
    await search(page).fill('claude');
    await card(page).waitFor();
    assert.equal(await card(page).locator('.icon-mask').count(), 1, 'the icon is drawn');
    assert.equal(await card(page).locator('img').count(), 0, 'no probe image was needed');
  });

  test('a card opens the agent page, which reloads as a deep link, and goes back to the search', async () => {
    await open(page, '?q=gemini');
    await page.getByRole('link', { name: 'Gemini CLI' }).click();
    await page.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/agents/gemini');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
    assert.match(await page.title(), /Gemini CLI/);
    await open(page, '?q=gemini');
    await page.getByRole('link', { name: 'Gemini CLI' }).click();
    await page.getByRole('link', { name: '← All agents' }).click();
    await count(page).waitFor();
    assert.equal(await search(page).inputValue(), 'gemini');
  });

  test('an unknown agent id says so and suggests the closest', async () => {
    await page.goto(siteUrl('agents/gemeni'));
    await page.getByRole('heading', { name: 'Agent not found' }).waitFor();
    await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
  });

  test('axe finds no violations in the light theme', async () => {
    await open(page, '?q=code');
    const { violations } = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
  });
});

describe('themes and icons', () => {
  test('dark theme draws icons in the light text colour, and the toggle is remembered', async () => {
    const { context, page } = await launch({ colorScheme: 'light' });
    try {
      await open(page, '?q=claude%20agent');
      const icon = page.locator('.icon-mask').first();
      await icon.waitFor();
      const light = await icon.evaluate((el) => getComputedStyle(el).backgroundColor);
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      const dark = await icon.evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.notEqual(light, dark);
      // Computed colours come back as oklab(L a b) or oklch(L C h): compare lightness.
      const lightness = (color) => Number(color.match(/okl(?:ab|ch)\(([\d.]+)/)?.[1] ?? NaN);
      assert.ok(lightness(dark) > 0.9, `icon colour in dark theme: ${dark}`);
      assert.ok(lightness(light) < 0.3, `icon colour in light theme: ${light}`);
      assert.match(await icon.evaluate((el) => getComputedStyle(el).maskImage), /claude-acp\.svg/);
      await page.reload();
      await page.getByRole('button', { name: 'Switch to light theme' }).waitFor();
      const { violations } = await new AxeBuilder({ page }).analyze();
      assert.deepEqual(violations.map((v) => v.id), []);
    } finally {
      await context.close();
    }
  });

  test('the system dark preference is followed, until the visitor chooses light', async () => {
    const { context, page } = await launch({ colorScheme: 'dark' });
    try {
      await open(page);
      assert.ok(await page.evaluate(() => document.documentElement.classList.contains('dark')));
      // Choosing light on a dark system wins over the system, now and on the next visit.
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(await background(), 'rgb(255, 255, 255)');
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
      assert.equal(await background(), 'rgb(255, 255, 255)');
      await page.reload();
      await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
      assert.equal(await background(), 'rgb(255, 255, 255)');
    } finally {
      await context.close();
    }
  });

  test('an icon that fails to load falls back to a monogram', async () => {
    const { context, page } = await launch();
    try {
      await page.route('**/claude-acp.svg', (route) => route.fulfill({ status: 404, body: 'missing' }));
      await open(page, '?q=claude%20agent');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Claude Agent' }) });
      await card.getByText('C', { exact: true }).waitFor();
      assert.equal(await card.locator('.icon-mask').count(), 0);
    } finally {
      await context.close();
    }
  });
});

describe('bad registries', () => {
  test('broken entries are reported and every other entry still shows', async () => {
    const { context, page } = await launch();
    try {
      const broken = structuredClone(REGISTRY);
      broken.agents[3] = 42;
      delete broken.agents[5].name;
      broken.agents[7].name = '<img src=x onerror="window.pwned=1">';
      await page.route('**/registry.json', (route) => route.fulfill({ json: broken }));
      await open(page);
      assert.equal(await count(page).textContent(), `${TOTAL - 2} agents`);
      await page.getByText('2 entries could not be shown').click();
      await page.getByText(/agents\[3\]/).waitFor();
      await page.getByText(new RegExp(`agents\\[5\\] \\(id "${REGISTRY.agents[5].id}"\\)`)).waitFor();
      // Hostile text is shown as text, never run.
      await page.getByRole('link', { name: '<img src=x onerror="window.pwned=1">' }).waitFor();
      assert.equal(await page.evaluate(() => window.pwned), undefined);
    } finally {
      await context.close();
    }
  });

  test('an unreachable registry shows the URL, the cause and a retry that works', async () => {
    const { context, page } = await launch();
    try {
      let fail = true;
      await page.route('**/registry.json', (route) => (fail ? route.abort('connectionrefused') : route.fallback()));
      await page.goto(siteUrl());
      const alert = page.getByRole('alert');
      await alert.getByText('The live registry could not be loaded').waitFor();
      assert.match(await alert.textContent(), /registry\.json/);
      assert.match(await alert.textContent(), /Check your connection/);
      fail = false;
      await alert.getByRole('button', { name: 'Retry' }).click();
      await live(page);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
      assert.ok((await countOf(page)) < TOTAL);
    } finally {
      await context.close();
    }
  });

  test('an HTTP error and invalid JSON are named', async () => {
    const { context, page } = await launch();
    try {
      await page.route('**/registry.json', (route) => route.fulfill({ status: 503, body: 'down' }));
      await page.goto(siteUrl());
      await page.getByRole('alert').getByText(/HTTP 503/).waitFor();
      await page.unroute('**/registry.json');
      await page.route('**/registry.json', (route) => route.fulfill({ body: '{"agents": [\n  {"id": "x",,}\n]}' }));
      await page.reload();
      await page.getByRole('alert').getByText(/line 2, column/).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('loading', () => {
  // Each page names the registry, which its start-up script has the fetch worker download
  // beside the wasm once the page has been painted; the app must take that download over, not
  // make it a second time. The probe results follow the registry, asked for once.
  for (const [where, url, base] of [
    ['the catalogue', () => siteUrl(), () => siteUrl()],
    ['an agent page under a sub-path', () => subSiteUrl('agents/gemini/'), () => subSiteUrl()],
  ]) {
    test(`${where} downloads the registry and the probe results once each`, async () => {
      const { context, page } = await launch();
      try {
        const requests = [];
        const messages = [];
        const finished = new Set();
        page.on('request', (request) => requests.push(request.url()));
        page.on('requestfinished', (request) => finished.add(request.url()));
        page.on('console', (message) => messages.push(message.text()));
        const response = await page.goto(url());
        const html = await response.text();
        // The app's own measure, recorded once the registry has arrived: its two fetches start
        // together, so by then both have been made.
        await page.waitForFunction(() => performance.getEntriesByName('acp:parse+index').length > 0).catch((error) => {
          const pending = requests.filter((r) => !finished.has(r));
          error.message += `\nunanswered: ${pending.join(', ') || 'nothing'}; console: ${messages.join(' | ')}`;
          throw error;
        });
        assert.ok(html.includes('<meta name="acp-fetch" content="registry.json">'), 'the registry is named for the start-up script');
        // Read from the HTML as it arrived: once the app has taken the head over, the tag it
        // does not render itself is gone.
        assert.equal(html.match(/<meta name="acp-/g)?.length, 1, 'nothing optional is named for the start-up script');
        await live(page);
        const matrix = new URL('protocol-matrix.json', base()).href;
        for (let waited = 0; !requests.includes(matrix) && waited < 10_000; waited += 100) await page.waitForTimeout(100);
        await page.waitForTimeout(500);
        for (const file of ['registry.json', 'protocol-matrix.json']) {
          const absolute = new URL(file, base()).href;
          assert.equal(requests.filter((r) => r === absolute).length, 1, `${file} requested once: ${requests}`);
        }
        assert.deepEqual(messages.filter((m) => /preload/i.test(m) && !/integrity/.test(m)), []);
        // The registry was the fetch worker's download: the page itself never fetched it.
        const own = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
        assert.ok(!own.some((name) => name.endsWith('/registry.json')), `the page fetched the registry itself: ${own}`);
      } finally {
        await context.close();
      }
    });
  }

  test('without the fetch worker, the page downloads the registry and the wasm itself', async () => {
    const { context, page } = await launch();
    try {
      await page.route('**/fetch-worker.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.goto(siteUrl());
      await live(page);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
      const own = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
      assert.ok(own.some((name) => name.endsWith('/registry.json')), `the page fetched the registry: ${own}`);
      assert.ok(own.some((name) => name.endsWith('.wasm')), `the page fetched the wasm: ${own}`);
    } finally {
      await context.close();
    }
  });

  test('a search typed as the page shows is answered before anything optional is asked for', async () => {
    const { context, page } = await launch();
    try {
      const OPTIONAL = /\/(protocol-matrix\.json|registry-for-jetbrains(-preview)?\.json|quarantine\.json|acp-lookalikes[^/]*)$/;
      const asked = [];
      context.on('request', (request) => asked.push({ url: request.url(), at: Date.now() }));
      await page.addInitScript(() => {
        // The wall-clock time at which the results' count first answers the search.
        let first = null;
        new MutationObserver(() => {
          const count = document.querySelector('section[aria-label=Results] [role=status]')?.textContent ?? '';
          first ??= count || null;
          const box = document.querySelector('input[type=search]');
          if (window.answeredAt === undefined && box?.value === 'gemini' && first !== null && /^\d+ agents?$/.test(count) && count !== first) {
            window.answeredAt = performance.timeOrigin + performance.now();
          }
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      // The app's wasm arrives after the search is typed, as on a phone's link.
      const release = await holdWasm(page);
      await page.goto(siteUrl(), { waitUntil: 'commit' });
      await search(page).fill('gemini');
      release();
      await page.waitForFunction(() => window.answeredAt !== undefined, null, { timeout: 60_000 });
      const answeredAt = await page.evaluate(() => window.answeredAt);
      assert.equal(await results(page).first().textContent(), 'Gemini CLI');
      const early = asked.filter((r) => OPTIONAL.test(r.url) && r.at <= answeredAt);
      assert.deepEqual(early.map((r) => `${r.url} ${Math.round(answeredAt - r.at)} ms before`), []);
      // They still come, once the page has answered.
      for (let waited = 0; asked.filter((r) => OPTIONAL.test(r.url)).length < 5 && waited < 20_000; waited += 200) {
        await page.waitForTimeout(200);
      }
      const later = new Set(asked.filter((r) => OPTIONAL.test(r.url)).map((r) => new URL(r.url).pathname.split('/').pop()));
      for (const file of ['protocol-matrix.json', 'registry-for-jetbrains.json', 'registry-for-jetbrains-preview.json', 'quarantine.json', 'acp-lookalikes_loader.js']) {
        assert.ok(later.has(file), `${file} asked for after the answer: ${[...later]}`);
      }
    } finally {
      await context.close();
    }
  });

  test('nothing of the app is fetched before the page has been painted', async () => {
    const { context, page } = await launch();
    try {
      const requested = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.goto(siteUrl());
      await live(page);
      const { paint, fetched } = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        fetched: performance
          .getEntriesByType('resource')
          .filter((r) => /\.(wasm|js)$|\/(registry|protocol-matrix)\.json$/.test(new URL(r.name).pathname))
          .map((r) => ({ file: new URL(r.name).pathname, start: r.startTime })),
      }));
      assert.ok(paint !== null, 'the page has a first contentful paint');
      const files = fetched.map((f) => f.file);
      // The registry and the app's wasm are the fetch worker's downloads, which it starts once
      // it runs: after its script, which the page fetches. The page compiles no wasm itself but
      // the early search's, a tenth of the app's.
      for (const file of ['/fetch-worker.js', '/protocol-matrix.json', '/acp-early_bg.wasm']) assert.ok(files.includes(file), `${file} was fetched: ${files}`);
      assert.ok(requested.some((f) => APP_WASM.test(f)), `the app's wasm was fetched: ${requested}`);
      assert.ok(!files.some((f) => APP_WASM.test(f)), `the page fetched the app's wasm itself: ${files}`);
      for (const { file, start } of fetched) {
        assert.ok(start > paint, `${file} was requested at ${start.toFixed(0)} ms, after the first paint at ${paint.toFixed(0)} ms`);
      }
    } finally {
      await context.close();
    }
  });
});

describe('published under a sub-path', () => {
  test('links, assets and deep links stay under the base path', async () => {
    const { context, page } = await launch();
    try {
      await page.goto(subSiteUrl('?q=gemini'));
      const link = page.getByRole('link', { name: 'Gemini CLI' });
      await link.waitFor();
      assert.equal(await link.getAttribute('href'), '/acp/registry/agents/gemini');
      await link.click();
      await page.getByRole('heading', { level: 1, name: 'Gemini CLI' }).waitFor();
      const requested = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      await page.goto(subSiteUrl('agents/claude-acp'));
      await page.getByRole('heading', { level: 1, name: 'Claude Agent' }).waitFor();
      await live(page);
      // The icon is read from under the base path, and drawn (from that URL, or from a
      // `blob:` of what was read there).
      await page.waitForFunction(() => {
        const mask = document.querySelector('.icon-mask');
        return mask && /\/acp\/registry\/claude-acp\.svg|blob:/.test(getComputedStyle(mask).maskImage);
      });
      assert.ok(requested.includes('/acp/registry/claude-acp.svg'), `the icon was requested: ${requested}`);
      assert.deepEqual(requested.filter((path) => !path.startsWith('/acp/registry/')), []);
    } finally {
      await context.close();
    }
  });
});
