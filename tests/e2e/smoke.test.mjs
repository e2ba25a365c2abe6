// Placeholder proving the pipeline: the release build is served and Chromium opens it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, siteUrl, subSiteUrl } from './helpers.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser.context.close();
});

test('the home page has the catalogue title', async () => {
  const response = await browser.page.goto(siteUrl());
  assert.equal(response.status(), 200);
  assert.match(await browser.page.title(), /ACP/);
});

test('the build under /acp/registry/ has the catalogue title', async () => {
  const response = await browser.page.goto(subSiteUrl());
  assert.equal(response.status(), 200);
  assert.match(await browser.page.title(), /ACP/);
});
