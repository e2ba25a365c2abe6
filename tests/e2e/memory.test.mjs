// Memory over a long session: typing re-renders the results thousands of times, and what a
// dropped card held must go with it. A file of its own: it takes over a minute, and the files
// run side by side.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { launch, live, siteUrl } from './helpers.mjs';

const search = (page) => page.getByRole('searchbox', { name: 'Search agents' });

describe('memory', () => {
  // Every re-render of the results creates cards and drops others; a dropped card must leave
  // nothing behind. The heap grows to its working size early, then stays: measured, two 64 KB
  // pages past where it is after 200, then none over the next 5,000. So 1,200 more after the
  // first 600 may grow the wasm memory by two pages at most. The leaks fixed in
  // vendor/reactive_graph (dropped effects left listed by the signals they read: 2-6 MB per
  // 1,000) and vendor/leptos_router (every replaced URL kept: about 200 KB per 1,000) each grow
  // it by more than that over 1,200.
  test('wasm memory does not grow over 1,200 re-renders of the results once warm', async () => {
    const { context, page } = await launch();
    try {
      await page.addInitScript(() => {
        window.__memories = [];
        for (const name of ['instantiate', 'instantiateStreaming']) {
          const original = WebAssembly[name];
          WebAssembly[name] = async (...args) => {
            const result = await original.apply(WebAssembly, args);
            const memory = (result.instance ?? result)?.exports?.memory;
            if (memory instanceof WebAssembly.Memory) window.__memories.push(memory);
            return result;
          };
        }
      });
      await page.goto(siteUrl());
      await live(page);
      const rerender = (times) =>
        page.evaluate(async (times) => {
          const box = document.querySelector('input[type=search]');
          const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
          const words = ['a', 'ag', 'c', 'cl', 'g', 'ge', 'o', 'op', ''];
          for (let i = 0; i < times; i++) {
            box.value = words[i % words.length];
            box.dispatchEvent(new Event('input', { bubbles: true }));
            await frame();
          }
          return window.__memories.reduce((sum, memory) => sum + memory.buffer.byteLength, 0);
        }, times);
      // Warm up: the first searches grow the heap to its working size.
      const warm = await rerender(600);
      const end = await rerender(1200);
      console.log(`wasm memory: ${warm} bytes after 600 re-renders, ${end} after 1,800`);
      assert.ok(end - warm <= 2 * 64 * 1024, `grew by ${end - warm} bytes`);
      await search(page).fill('gemini');
      await page.getByRole('link', { name: 'Gemini CLI' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
