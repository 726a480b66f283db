// The memory, agents and connect pages in Chromium against a real `cairn serve` child (no
// embedder: CAIRN_EMBEDDINGS=none): a fact saved over MCP is found (fts, and hybrid with the
// degraded notice), opened, tagged and deleted; a procedure shows its versions; an agent
// registered over REST is listed and rotated; the connect page shows a snippet. Screenshots.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl, narrowShot } from './browser.js';

const SHOTS = join(ROOT, 'docs/screenshots');

async function saveFact(serve: ServeProcess): Promise<void> {
  const mcp = await httpClient(`${serve.base}/api/mcp/memory`, apiToken(serve));
  try {
    const result = await mcp.client.callTool({
      name: 'memory_save',
      arguments: {
        title: 'Deploy window',
        content: 'Production deploys happen on Tuesdays after the standup.',
        tags: ['ops'],
      },
    });
    expect(result.isError).toBeFalsy();
    for (const content of ['Rollback: redeploy the previous tag.', 'Rollback: run cairn undo.']) {
      const saved = await mcp.client.callTool({
        name: 'memory_save',
        arguments: { procedureName: 'rollback', content },
      });
      expect(saved.isError).toBeFalsy();
    }
  } finally {
    await mcp.close();
  }
}

async function register(serve: ServeProcess, nick: string): Promise<void> {
  const res = await fetch(`${serve.base}/v1/agents/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiToken(serve)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ nick, type: 'worker', channels: ['#builds'] }),
  });
  expect(res.status).toBe(201);
}

async function search(page: Page, query: string, mode: string): Promise<void> {
  await page.getByLabel('Search memory').fill(query);
  await page.getByRole('radio', { name: mode }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** Finds the fact by fts and hybrid, opens it, tags it, deletes it, and searches again. */
async function memoryPage(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Memory' }).click();
  await search(page, 'tuesdays', 'fts');
  const hit = page.locator('li.hit').filter({ hasText: 'Deploy window' });
  await hit.waitFor();
  expect(await hit.innerText()).toMatch(/fts-bm25[\s\S]*fts #1/);
  await search(page, 'when do production deploys happen', 'hybrid');
  await page.getByText(/Degraded: no embedder configured/).waitFor();
  await hit.waitFor();
  await hit.getByRole('button', { name: 'Deploy window' }).click();
  const panel = page.getByRole('complementary', { name: 'Memory item' });
  await panel.getByText('Production deploys happen on Tuesdays').waitFor();
  await panel.getByLabel('Tags (comma-separated)').fill('ops, release-train');
  await panel.getByRole('button', { name: 'Save tags' }).click();
  await panel.locator('.item-tags').filter({ hasText: 'release-train' }).waitFor();
  await page.screenshot({ path: join(SHOTS, 'memory-1280x800.png') });
  await narrowShot(page, 'memory');
  await panel.getByRole('button', { name: 'Delete…' }).click();
  await panel.getByRole('button', { name: 'Yes, delete' }).click();
  await page.getByText('Deleted “Deploy window”.').waitFor();
  await search(page, 'release-train tuesdays', 'fts');
  await page.getByText('Nothing found in this scope').waitFor();
  expect(await hit.count()).toBe(0);
}

/** Lists the registered agent, rotates it, and checks the new token works. */
async function agentsPage(page: Page, serve: ServeProcess): Promise<void> {
  await page.getByRole('link', { name: 'Agents' }).click();
  const row = page.locator('tr[data-agent="builder-1"]');
  await row.waitFor();
  expect(await row.innerText()).toMatch(/worker[\s\S]*offline[\s\S]*#builds/);
  await row.getByRole('button', { name: 'Rotate' }).click();
  await row.getByRole('button', { name: 'Yes, rotate' }).click();
  const creds = page.getByRole('status', { name: 'New credentials' });
  const token = await creds.locator('code.secret').first().innerText();
  expect(await row.innerText()).not.toContain('Yes, rotate');
  await page.screenshot({ path: join(SHOTS, 'agents-1280x800.png') });
  await narrowShot(page, 'agents');
  const res = await fetch(`${serve.base}/v1/agents`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
}

/** Opens the procedure and sees both versions, newest first. */
async function procedureVersions(page: Page): Promise<void> {
  await search(page, 'rollback', 'fts');
  await page.locator('li.hit').getByRole('button', { name: 'rollback' }).click();
  const panel = page.getByRole('complementary', { name: 'Memory item' });
  const versions = panel.locator('ol.versions > li');
  await versions.nth(1).waitFor();
  expect(await versions.allInnerTexts()).toEqual([
    expect.stringMatching(/^v2[\s\S]*cairn undo/),
    expect.stringMatching(/^v1[\s\S]*previous tag/),
  ]);
  await panel.getByRole('button', { name: 'Close' }).click();
}

async function connectPage(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Connect' }).click();
  await page.getByLabel('Server').selectOption('memory');
  const snippet = page.getByTestId('snippet');
  await snippet.filter({ hasText: '/api/mcp/memory' }).waitFor();
  await page.screenshot({ path: join(SHOTS, 'connect-1280x800.png') });
  await narrowShot(page, 'connect');
}

describe.skipIf(!HAVE_CHROMIUM)('memory, agents and connect in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('searches, opens, tags and deletes a fact; lists and rotates an agent; shows a snippet', async () => {
    const serve = await spawnServe([], { CAIRN_EMBEDDINGS: 'none' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      await saveFact(serve);
      await register(serve, 'builder-1');
      mkdirSync(SHOTS, { recursive: true });
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      await memoryPage(page);
      await procedureVersions(page);
      await agentsPage(page, serve);
      await connectPage(page);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });
});
