// A headless Chromium with a throwaway profile, for the bench's scripts: every load is a first
// visit, over the network (the service worker blocked: it would answer later loads from its
// cache, which the plain pages have not). Flags as tests/e2e/helpers.mjs gives them.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/helpers.mjs';

/** Launches `executablePath` with Playwright's context `options`; `close` removes the profile too. */
export async function freshBrowser(executablePath, options = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'acp-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'block',
    ...options,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  return { context, page, close };
}
