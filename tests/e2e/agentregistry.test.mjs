// The catalogue built for an AgentRegistry (`--registry-kind agentregistry`), against the
// stand-in service of `cargo xtask agentregistry-server` on another origin (CORS): paging with
// progress, counts, facets, cards, an agent page with its endpoints and documents, and what a
// failing page does.
//
//   AGENTREGISTRY_SITE_URL  the site built for the service
//   AGENTREGISTRY_URL       the service itself (for its test controls)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { launch, siteUrl } from './helpers.mjs';

const SITE = process.env.AGENTREGISTRY_SITE_URL;
const SERVICE = process.env.AGENTREGISTRY_URL;
const site = (path = '') => siteUrl(path, SITE);

const PAGES = [1, 2, 3].map((n) =>
  JSON.parse(readFileSync(new URL(`../fixtures/agentregistry/page-${n}.json`, import.meta.url), 'utf8')),
);
const ITEMS = PAGES.flatMap((p) => p.items);
// The fixture's malformed item (its name is a number) is left out.
const AGENTS = ITEMS.filter((item) => typeof item.name === 'string');
const byName = (name) => AGENTS.find((a) => a.name === name);
const protocolCount = (protocol) => AGENTS.filter((a) => a.endpoints.some((e) => e.protocol === protocol)).length;

const count = (page) => page.getByText(/^\d+ agents?$/);
const countOf = async (page) => Number((await count(page).textContent()).split(' ')[0]);
/** Waits until every page is in: the agents show as their pages arrive, the progress beside them. */
async function loaded(page) {
  await count(page).waitFor();
  await page.getByRole('status').filter({ hasText: /^Loading agents…/ }).waitFor({ state: 'detached' });
}
const results = (page) => page.getByRole('region', { name: 'Results' });
const card = (page, name) => results(page).getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
const facet = (page, legend, option) =>
  page.getByRole('group', { name: legend }).getByRole('checkbox', { name: new RegExp(`^${option}\\s*\\d+$`) });

async function control(path) {
  const response = await fetch(new URL(path, SERVICE), { method: 'POST' });
  assert.ok(response.ok, `${path}: HTTP ${response.status}`);
}

describe('AgentRegistry catalogue', () => {
  let context;
  let page;
  before(async () => {
    assert.ok(SITE && SERVICE, 'run with `cargo xtask test`, which sets AGENTREGISTRY_SITE_URL and AGENTREGISTRY_URL');
    ({ context, page } = await launch({ viewport: { width: 1280, height: 900 } }));
  });
  afterEach(async () => control('/__control/reset'));
  after(async () => context.close());

  test('pages through the whole listing, showing progress, and says which item was left out', async () => {
    await page.goto(site());
    // Page 2 answers late: the status says how far loading has got.
    await page.getByRole('status').filter({ hasText: /^Loading agents… page 2 of 3 \(5 agents of 13 so far\)$/ }).waitFor();
    await loaded(page);
    assert.equal(await countOf(page), AGENTS.length);
    assert.equal(await page.title(), 'Agent Registry');
    await page.getByRole('heading', { level: 1, name: 'Find an agent' }).waitFor();

    const notice = page.getByText('1 entry could not be shown');
    await notice.click();
    await page.getByText(/^page 2, items\[1\] \(id "2f7c5a0e-9b4d-4d8f-8e6b-1c3d5f7a9b07"\), left out: /).waitFor();
  });

  test('cards show protocol and transport badges and whether the agent is live', async () => {
    await page.goto(site());
    await loaded(page);
    const weather = card(page, 'Weather MCP Server');
    const badges = weather.getByRole('list', { name: 'Endpoints' });
    assert.deepEqual(await badges.getByRole('listitem').allTextContents(), ['MCP', 'HTTP', 'Live']);
    assert.deepEqual(
      await card(page, 'Research Agent').getByRole('list', { name: 'Endpoints' }).getByRole('listitem').allTextContents(),
      ['A2A', 'AMQP', 'Stale'],
    );
    // Unknown values are shown as the registry wrote them.
    await card(page, 'Translation Gateway').getByText('OpenAI', { exact: true }).waitFor();
    await card(page, 'Telemetry Relay').getByText('Grpc', { exact: true }).waitFor();
    await weather.getByText('by weather-co').waitFor();
  });

  test('facets: protocol, transport, liveness, capability, tag, label and owner, with counts', async () => {
    await page.goto(site());
    await loaded(page);
    for (const protocol of ['A2A', 'MCP', 'ACP', 'Generic', 'OpenAI']) {
      const label = page.getByRole('group', { name: 'Protocol' }).locator('label').filter({ hasText: new RegExp(`^${protocol}\\d`) });
      assert.equal(await label.locator('span').last().textContent(), String(protocolCount(protocol)), protocol);
    }
    for (const legend of ['Transport', 'Liveness', 'Capability', 'Tag', 'Label', 'Owner']) {
      await page.getByRole('group', { name: legend }).waitFor();
    }
    // ACP-only groups are not shown for this source.
    assert.equal(await page.getByRole('group', { name: 'Distribution' }).count(), 0);

    await facet(page, 'Protocol', 'A2A').check();
    await page.waitForURL(/[?&]protocol=A2A/);
    assert.equal(await countOf(page), protocolCount('A2A'));
    await facet(page, 'Liveness', 'Stale').check();
    await page.waitForURL(/[?&]live=stale/);
    const staleA2a = AGENTS.filter((a) => a.endpoints.some((e) => e.protocol === 'A2A') && !a.endpoints.some((e) => e.isLive === true));
    await page.waitForFunction((n) => document.body.innerText.includes(`${n} agent`), staleA2a.length);
    assert.deepEqual(
      await results(page).getByRole('heading').allTextContents(),
      staleA2a.map((a) => a.name).sort(),
    );

    // The state is in the address: a reload shows the same.
    await page.reload();
    await loaded(page);
    assert.equal(await countOf(page), staleA2a.length);
    assert.ok(await facet(page, 'Protocol', 'A2A').isChecked());

    await page.goto(site('?label=team%3Dfinance&owner=finance-platform'));
    await loaded(page);
    const finance = AGENTS.filter((a) => a.labels?.team === 'finance' && a.ownerId === 'finance-platform');
    assert.equal(await countOf(page), finance.length);
  });

  test('search finds agents by capability, tag and label too', async () => {
    await page.goto(site());
    await loaded(page);
    const search = page.getByRole('searchbox', { name: 'Search agents' });
    await search.fill('get-forecast');
    await page.waitForURL(/q=get-forecast/);
    assert.deepEqual(await results(page).getByRole('heading').allTextContents(), ['Weather MCP Server']);
    await search.fill('invoice');
    await page.waitForFunction(() => document.body.innerText.includes('2 agents'));
    assert.deepEqual((await results(page).getByRole('heading').allTextContents()).sort(), ['Invoice Extractor', 'Invoice Processor']);
  });

  test('an agent page lists every endpoint, the queue details and the protocol documents', async () => {
    const payments = byName('Payments Agent');
    await page.goto(site(`agents/${payments.id}`));
    await page.getByRole('heading', { level: 1, name: 'Payments Agent' }).waitFor();
    assert.equal(await page.title(), 'Payments Agent · Agent Registry');
    await page.getByRole('main').locator('header').getByText(payments.description).waitFor();
    await page.getByText('finance-platform', { exact: true }).waitFor();

    const endpoints = page.getByRole('region', { name: 'Endpoints' }).getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    assert.equal(await endpoints.count(), payments.endpoints.length);
    const https = endpoints.filter({ has: page.getByRole('heading', { name: 'https' }) });
    await https.getByRole('link', { name: 'https://payments.example.com/a2a' }).waitFor();
    await https.getByText('Persistent: heartbeat every 30 s').waitFor();
    await https.getByText('Live now').waitFor();
    const bus = endpoints.filter({ has: page.getByRole('heading', { name: 'service-bus' }) });
    await bus.getByText('Ephemeral: registered for 300 s, renewed on each call').waitFor();
    await bus.getByText('Not live: no recent heartbeat or renewal').waitFor();
    await bus.getByText('Azure Service Bus').waitFor();
    await bus.getByText('billing-bus.servicebus.windows.net', { exact: true }).waitFor();
    await bus.getByText('Response topic', { exact: true }).waitFor();

    // The registry's own documents: links that answer, and a curl to fetch them.
    for (const [name, path] of [
      ['A2A agent card', `/a2a/agents/${payments.id}`],
      ['Queued A2A agent card', `/a2a/async/agents/${payments.id}`],
    ]) {
      const link = page.getByRole('link', { name, exact: true });
      const href = await link.getAttribute('href');
      assert.equal(href, `${SERVICE}${path}`);
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
      const response = await fetch(href);
      assert.equal(response.status, 200, href);
    }
    await page.getByText(`curl -s ${SERVICE}/a2a/agents/${payments.id}`, { exact: true }).waitFor();
  });

  test('an MCP endpoint over HTTP gets an mcpServers entry', async () => {
    const weather = byName('Weather MCP Server');
    await page.goto(site(`agents/${weather.id}#connect`));
    await page.getByRole('heading', { name: 'MCP client configuration' }).or(page.getByText('MCP client configuration')).first().waitFor();
    const code = page.locator('figure').filter({ hasText: 'MCP client configuration' }).locator('pre code');
    assert.deepEqual(JSON.parse(await code.textContent()), {
      mcpServers: { [weather.id]: { type: 'http', url: weather.endpoints[0].address } },
    });
    await page.getByRole('link', { name: 'MCP server card', exact: true }).waitFor();
  });

  test('a failing page keeps what loaded, says so, and loads the rest on retry', async () => {
    await control('/__control/fail?page=3&times=1');
    await page.goto(site());
    const alert = page.getByRole('alert');
    const loaded = PAGES[0].items.length + PAGES[1].items.filter((i) => typeof i.name === 'string').length;
    await alert.getByText(`Only part of the registry could be loaded: showing the ${loaded} agents loaded so far.`).waitFor();
    await alert.getByText(/page 3 of the agent listing could not be fetched: .*HTTP 503/).waitFor();
    assert.equal(await countOf(page), loaded);

    await alert.getByRole('button', { name: 'Load the rest' }).click();
    await page.waitForFunction((n) => document.body.innerText.includes(`${n} agents`), AGENTS.length);
    assert.equal(await page.getByRole('alert').count(), 0);
  });

  test('when the first page fails there is nothing to show: the error and a retry', async () => {
    await control('/__control/fail?page=1&times=1');
    // The listing read whole by the tests above is kept; without that copy, nothing is left.
    await page.evaluate(() => caches.delete('acp-kept-v1'));
    await page.goto(site());
    const alert = page.getByRole('alert');
    await alert.getByText(`The agents of ${SERVICE} could not be listed`, { exact: false }).waitFor();
    await alert.getByRole('button', { name: 'Retry' }).click();
    await loaded(page);
    assert.equal(await countOf(page), AGENTS.length);
  });

  test('a long listing is asked for four pages at a time once its size is known, and shown in order', async () => {
    // Ten pages of three agents, served here; page 2 is held back until released.
    const PAGE_COUNT = 10;
    const listing = (n) => ({
      items: [0, 1, 2].map((i) => ({
        id: `paged-${n}-${i}`,
        name: `Paged agent ${String(n).padStart(2, '0')}-${i}`,
        ownerId: 'ops',
        endpoints: [{ transport: 'Http', protocol: 'A2A', address: `https://paged-${n}-${i}.test/`, livenessModel: 'Persistent', isLive: true }],
      })),
      totalCount: PAGE_COUNT * 3,
      page: n,
      pageSize: 100,
      totalPages: PAGE_COUNT,
      hasNextPage: n < PAGE_COUNT,
      hasPreviousPage: n > 1,
    });
    let inFlight = 0;
    let mostInFlight = 0;
    const asked = [];
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const isListing = (url) => url.pathname.endsWith('/discover/agents');
    await page.route(isListing, async (route) => {
      const n = Number(new URL(route.request().url()).searchParams.get('page'));
      asked.push(n);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (n === 2) await held;
      else await new Promise((resolve) => setTimeout(resolve, 150));
      inFlight -= 1;
      await route
        .fulfill({ json: listing(n), headers: { 'Access-Control-Allow-Origin': '*' } })
        .catch(() => {}); // a request the page aborted
    });
    try {
      await page.goto(site());
      // Page 1 alone, then pages 2 to 5 at once; 3 to 5 answer, but nothing after page 2 shows
      // before page 2 does.
      await page.getByRole('status').filter({ hasText: /^Loading agents… page 2 of 10 \(3 agents of 30 so far\)/ }).waitFor();
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.deepEqual(asked.slice(0, 5), [1, 2, 3, 4, 5]);
      assert.equal(asked.length, 5, `while page 2 is held, only pages up to 5 are asked for: ${asked}`);
      assert.equal(await countOf(page), 3);
      release();
      await loaded(page);
      assert.equal(await countOf(page), PAGE_COUNT * 3);
      assert.deepEqual([...asked].sort((a, b) => a - b), Array.from({ length: PAGE_COUNT }, (_, i) => i + 1));
      assert.equal(mostInFlight, 4);
      const names = await results(page).getByRole('heading').allTextContents();
      assert.equal(names[0], 'Paged agent 01-0');
      assert.equal(names.at(-1), 'Paged agent 10-2');
    } finally {
      await page.unroute(isListing);
      // The listing kept is this one: the tests after this one use the service's own.
      await page.evaluate(() => caches.delete('acp-kept-v1'));
    }
  });

  test('no accessibility violations on the catalogue and an agent page', async () => {
    await page.goto(site());
    await loaded(page);
    let { violations } = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
    await page.goto(site(`agents/${byName('Research Agent').id}`));
    await page.getByRole('heading', { level: 1, name: 'Research Agent' }).waitFor();
    ({ violations } = await new AxeBuilder({ page }).analyze());
    assert.deepEqual(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), []);
  });
});
