// The approvals and audit pages in Chromium against a real `cairn serve` child: an MCP client's
// destructive call waits, the page and the nav badge show it, "Approve once" lets the client's
// call complete, and the audit page lists that call's rows. Screenshots both pages.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { httpClient, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, HAVE_CHROMIUM, launch, loginUrl, narrowShot } from './browser.js';

const SHOTS = join(ROOT, 'docs/screenshots');

const badge = (page: Page) => page.locator('[data-testid="pending-badge"]');

async function auditShows(page: Page, callId: string): Promise<void> {
  await page.getByRole('link', { name: /^Audit/ }).click();
  await page.locator(`tr[data-call-id="${callId}"]`).first().waitFor();
  const outcomes = await page.locator(`tr[data-call-id="${callId}"] .outcome`).allTextContents();
  expect(outcomes).toEqual(expect.arrayContaining(['pending', 'allowed', 'ok']));
  await page.getByLabel('Outcome').selectOption('allowed');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => page.locator('table.audit tbody tr').count()).toBe(1);
  await page.getByLabel('Outcome').selectOption('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.locator(`tr[data-call-id="${callId}"]`).nth(3).waitFor();
}

/** Opens the approvals page, checks the waiting call's card, screenshots, approves once. */
async function approveOnce(page: Page): Promise<void> {
  await page.getByRole('link', { name: /^Approvals/ }).click();
  const card = page.locator('article.approval');
  await card.waitFor();
  const text = await card.innerText();
  for (const s of [
    'delete_path',
    '/srv/builds/2024-old',
    'client:cairn-http-test',
    'destructive',
  ]) {
    expect(text).toContain(s);
  }
  expect(await badge(page).innerText()).toBe('1');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'approvals-1280x800.png') });
  await narrowShot(page, 'approvals');
  await card.getByRole('button', { name: 'Approve once' }).click();
}

describe.skipIf(!HAVE_CHROMIUM)('approvals and audit in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('approves a waiting MCP call from the page and shows it in the audit log', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const mcp = await httpClient(`${serve.base}/api/mcp/tools`, apiToken(serve));
    try {
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      expect(await badge(page).count()).toBe(0);
      const call = mcp.client.callTool({
        name: 'delete_path',
        arguments: { path: '/srv/builds/2024-old' },
      });
      await badge(page).filter({ hasText: '1' }).waitFor();
      await approveOnce(page);
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ path: '/srv/builds/2024-old' });
      await page.getByText('Nothing is waiting for you').waitFor();
      expect(await badge(page).count()).toBe(0);
      const callId = await page.evaluate(async () => {
        const res = await fetch('/api/audit?tool=delete_path&step=result');
        return ((await res.json()) as { entries: Array<{ callId: string }> }).entries[0]?.callId;
      });
      await auditShows(page, callId ?? 'missing');
      await page.screenshot({ path: join(SHOTS, 'audit-1280x800.png') });
      await narrowShot(page, 'audit');
      expect(errors).toEqual([]);
    } finally {
      await mcp.close();
      await page.close();
      await serve.cleanup();
    }
  });
});
