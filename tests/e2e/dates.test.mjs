// How old the data is: every page names the registry build it shows and the day of the probe
// beside it, and a probe much older than the registry is flagged, never shown as current. The
// root site shows the bundled registry (dated 2026-08-20, as its probe); the sub-path site says
// it shows a later build (v2026.12.01-5e1f0c2, REGISTRY_EDITION) beside the same probe.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { launch, live, siteUrl, subSiteUrl } from './helpers.mjs';

const MATRIX = JSON.parse(readFileSync(new URL('../../public/protocol-matrix.json', import.meta.url), 'utf8'));

const footer = (page) => page.locator('#data-dates');
const protocol = (page) => page.locator('#protocol');
const text = async (locator) => (await locator.textContent()).replace(/\s+/g, ' ').trim();

describe('data dates', () => {
  test('the footer and an agent page give the registry’s and the probe’s days, with JavaScript off', async () => {
    const { context, page } = await launch({ javaScriptEnabled: false });
    try {
      await page.goto(siteUrl());
      assert.equal(await text(footer(page)), 'Showing the registry as published on 2026-08-20. Protocol probe of 2026-08-20.');
      await page.goto(siteUrl('agents/claude-acp/'));
      assert.equal(await text(page.locator('#listed-in')), 'Listed in the registry as published on 2026-08-20.');
      await protocol(page).getByText('Probed v0.70.0 on 2026-08-20 (the listing is v0.85.1).').waitFor();
      assert.equal(await protocol(page).getByRole('note').count(), 0, 'a probe of the same day is not flagged');
      assert.match(await text(footer(page)), /Protocol probe of 2026-08-20\.$/);
    } finally {
      await context.close();
    }
  });

  test('a probe months older than the registry build is flagged, with JavaScript off', async () => {
    const { context, page } = await launch({ javaScriptEnabled: false });
    try {
      await page.goto(subSiteUrl());
      assert.equal(
        await text(footer(page)),
        'Showing registry build v2026.12.01-5e1f0c2, published 2026-12-01. Protocol probe of 2026-08-20: 3 months older than the registry build shown (published 2026-12-01), so it may not describe the versions listed.',
      );
      await page.goto(subSiteUrl('agents/claude-acp/'));
      assert.equal(await text(page.locator('#listed-in')), 'Listed in registry build v2026.12.01-5e1f0c2, published 2026-12-01.');
      const note = protocol(page).getByRole('note');
      assert.match(await text(note), /^This probe is 3 months older than the registry build shown \(published 2026-12-01\): the agent may have changed since/);
      // A probe that failed that long ago is flagged too.
      await page.goto(subSiteUrl('agents/cortex-code/'));
      assert.match(await text(protocol(page).getByRole('note')), /^This probe is 3 months older than the registry build shown \(published 2026-12-01\): the agent may start now\.$/);
    } finally {
      await context.close();
    }
  });

  test('in the app, a stale probe file is flagged, each agent dated by its own probedAt, with its age', async () => {
    const matrix = structuredClone(MATRIX);
    matrix.date = '2026-05-18';
    for (const agent of matrix.agents) agent.probedAt = '2026-05-18T08:53:04+00:00';
    // A result reused from an earlier run keeps its own, earlier day.
    matrix.agents.find((a) => a.id === 'claude-acp').probedAt = '2026-05-02T06:00:00+00:00';
    const { context, page } = await launch();
    try {
      await page.route('**/protocol-matrix.json', (route) => route.fulfill({ json: matrix }));
      await page.goto(siteUrl());
      await live(page);
      await footer(page).getByText('Protocol probe of 2026-05-18: 3 months older than the registry build shown (published 2026-08-20)').waitFor();
      await page.goto(siteUrl('agents/claude-acp/'));
      await live(page);
      await page.getByRole('heading', { level: 1, name: 'Claude Agent' }).waitFor();
      const provenance = await text(protocol(page).getByText(/^Probed v0\.70\.0 on/));
      // The age by the visitor's clock is the app's alone: the build's HTML would keep it.
      assert.match(provenance, /^Probed v0\.70\.0 on 2026-05-02 \((\d+ (days|months)) ago\) \(the listing is v0\.85\.1\)\.$/);
      assert.match(await text(protocol(page).getByRole('note')), /^This probe is 3 months older than the registry build shown \(published 2026-08-20\)/);
    } finally {
      await context.close();
    }
  });

  test('a site whose probe file is `none` never asks for one and says it has none', async () => {
    const { context, page } = await launch();
    try {
      const asked = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      // The settings as a build with PROTOCOL_MATRIX_URL=none writes them (a remote registry
      // without its own probe file gets that): the app reads them from the page.
      await page.route((url) => url.pathname.endsWith('/agents/claude-acp/'), async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace('"protocolMatrixUrl":"protocol-matrix.json"', '"protocolMatrixUrl":"none"');
        assert.ok(body.includes('"protocolMatrixUrl":"none"'));
        await route.fulfill({ response, body });
      });
      await page.goto(siteUrl('agents/claude-acp/'));
      await live(page);
      await protocol(page).getByText(/^Not probed: this site has no protocol probe for this registry/).waitFor();
      assert.equal(await text(footer(page)), 'Showing the registry as published on 2026-08-20. No protocol probe for this registry.');
      assert.deepEqual(asked.filter((path) => path.endsWith('protocol-matrix.json')), []);
    } finally {
      await context.close();
    }
  });

  test('a probe file that cannot be loaded is reported, and the footer stops naming a probe', async () => {
    const { context, page } = await launch();
    try {
      await page.route('**/protocol-matrix.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.goto(siteUrl());
      await live(page);
      await page.getByText(/The probe results could not be loaded/).waitFor();
      assert.equal(await text(footer(page)), 'Showing the registry as published on 2026-08-20.');
    } finally {
      await context.close();
    }
  });
});
