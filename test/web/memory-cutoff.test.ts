// The memory page's relevance cut-off in Chromium against a real `cairn serve` child with the
// local model: 30 notes in 6 topics saved over MCP; a hybrid query about deploys lists its 3
// deploy notes with scores, cosines and ranks, says "7 weaker matches hidden", shows them
// (marked "weaker match") on request, and a new search hides them again. Screenshot.
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { NOTES } from '../memory/cutoff-notes.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

async function saveNotes(serve: ServeProcess): Promise<void> {
  const mcp = await httpClient(`${serve.base}/api/mcp/memory`, apiToken(serve));
  try {
    for (const [, title, content] of NOTES) {
      const res = await mcp.client.callTool({ name: 'memory_save', arguments: { title, content } });
      expect(res.isError).toBeFalsy();
    }
  } finally {
    await mcp.close();
  }
}

/** Waits (bounded: 120 × 1 s) until the server's background worker embedded every note. */
async function waitForEmbeddings(serve: ServeProcess): Promise<void> {
  const q = new URLSearchParams({ query: 'notes', mode: 'vector', limit: String(NOTES.length) });
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${serve.base}/api/memory/search?${q}`, {
      headers: { authorization: `Bearer ${apiToken(serve)}` },
    });
    const body = (await res.json()) as { results: unknown[]; degraded?: boolean };
    if (body.degraded !== true && body.results.length === NOTES.length) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the notes were not embedded within 120 s');
}

async function search(page: Page, query: string): Promise<void> {
  await page.getByLabel('Search memory').fill(query);
  await page.getByRole('radio', { name: 'hybrid' }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

const titles = (page: Page): Promise<string[]> => page.locator('li.hit .hit-title').allInnerTexts();

describe.skipIf(!HAVE_CHROMIUM)('memory relevance cut-off in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('hides weaker hybrid matches behind a count, shows them on request', async () => {
    const serve = await spawnServe([], { CAIRN_EMBEDDINGS: 'local' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      await saveNotes(serve);
      await waitForEmbeddings(serve);
      await page.goto(loginUrl(serve));
      await page.getByRole('link', { name: 'Memory' }).click();
      await search(page, 'when do production deploys happen');
      const toggle = page.getByRole('button', { name: 'Show them' });
      await toggle.waitFor();
      expect(await titles(page)).toEqual(['Deploy window', 'Deploy freeze', 'Rollback steps']);
      expect(await page.getByText('7 weaker matches hidden.').count()).toBe(1);
      const first = page.locator('li.hit').first();
      expect(await first.innerText()).toMatch(
        /score\s+\d\.\d+\s+\(rrf\) · fts #1 · vector #\d+ · cosine 0\.\d\d/,
      );
      await toggle.press('Enter');
      await page.getByRole('button', { name: 'Hide them' }).waitFor();
      expect(await titles(page)).toHaveLength(10);
      expect(await page.locator('li.hit.weak').count()).toBe(7);
      expect(await page.locator('li.hit.weak').first().innerText()).toMatch(/weaker match/);
      await page.screenshot({ path: join(ROOT, 'docs/screenshots/memory-cutoff-1280x800.png') });
      await search(page, 'espresso maker maintenance');
      await page.getByText('9 weaker matches hidden.').waitFor();
      expect(await titles(page)).toEqual(['Coffee machine']);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  }, 240_000);
});
