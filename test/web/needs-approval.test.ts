// The board's "Needs approval" column in Chromium against a real `cairn serve` child: an agent
// (signed attach URLs, bound as `builder`) claims a task over MCP and calls delete_path; the
// card moves into Needs approval without a reload, refuses drops onto the lane, can still move
// to a status its real status allows; "Approve once" on the Approvals page (a second tab)
// completes the MCP call and the card leaves the column live. Screenshots 1280 and 390 px.
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT } from '../helpers.js';
import { type HttpClient, spawnServe } from '../http/helpers.js';
import {
  attachAs,
  consoleErrors,
  dragCard,
  HAVE_CHROMIUM,
  launch,
  loginUrl,
  narrowShot,
} from './browser.js';

const AGENT = 'builder';
const card = (page: Page, column: string, id: string) =>
  page.locator(`[data-column="${column}"] [data-task-id="${id}"]`);
const lane = (page: Page) => page.locator('[data-column="needs-approval"]');

async function tool(c: HttpClient, name: string, args: object): Promise<Record<string, unknown>> {
  const res = await c.client.callTool({ name, arguments: { ...args } });
  expect(res.isError).toBeFalsy();
  return (res.structuredContent ?? {}) as Record<string, unknown>;
}

/** Drags onto the lane (refused, nothing moves) and from it to In review (allowed). */
async function dragAround(page: Page, waitingId: string, otherId: string): Promise<void> {
  await dragCard(page, otherId, 'needs-approval');
  await page.getByText('Needs approval is not a drop target').waitFor();
  expect(await card(page, 'todo', otherId).count()).toBe(1);
  await dragCard(page, waitingId, 'in_review');
  await page.getByText(/Moved “Prune old builds”: In progress → In review/).waitFor();
  const moved = card(page, 'needs-approval', waitingId);
  await moved.locator('.tag.status', { hasText: 'In review' }).waitFor();
}

/** Approves the one waiting call on the Approvals page in its own tab. */
async function approveInTab(page: Page, base: string, taskId: string): Promise<void> {
  await page.goto(`${base}/approvals`);
  const approval = page.locator('article.approval');
  await approval.waitFor();
  const text = await approval.innerText();
  for (const s of ['delete_path', AGENT, taskId.slice(0, 8)]) expect(text).toContain(s);
  await approval.getByRole('button', { name: 'Approve once' }).click();
  await page.getByText('Nothing is waiting for you').waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)('Needs approval in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('shows a claimed task while its gated call waits, and drops it once approved', async () => {
    const serve = await spawnServe();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const tasks = await attachAs(serve, 'tasks', AGENT);
    const tools = await attachAs(serve, 'tools', AGENT);
    try {
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      const { id } = (await tool(tasks, 'create_task', { title: 'Prune old builds' })) as {
        id: string;
      };
      const other = (await tool(tasks, 'create_task', { title: 'Write notes' })) as { id: string };
      await card(page, 'todo', id).waitFor();
      await lane(page).getByText('No task is waiting for a human').waitFor();
      await tool(tasks, 'claim_task', { taskId: id, assigneeAgentId: AGENT });
      await card(page, 'in_progress', id).waitFor();

      const call = tools.client.callTool({
        name: 'delete_path',
        arguments: { path: '/srv/builds/2024-old' },
      });
      const waiting = card(page, 'needs-approval', id);
      await waiting.waitFor();
      expect(await card(page, 'in_progress', id).count()).toBe(0);
      expect(await waiting.innerText()).toContain('In progress');
      expect(await lane(page).innerText()).toContain('Waits for approval: delete_path');
      // The card links to its one waiting approval (approval-links.test.ts follows such links).
      expect(await lane(page).locator('a[href^="/approvals?id="]').count()).toBe(1);
      await dragAround(page, id, other.id);
      await page.screenshot({ path: join(ROOT, 'docs/screenshots/needs-approval-1280x800.png') });
      await narrowShot(page, 'needs-approval');

      const approvals = await context.newPage();
      const approvalErrors = consoleErrors(approvals);
      await approveInTab(approvals, serve.base, id);
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ path: '/srv/builds/2024-old' });
      await card(page, 'in_review', id).waitFor();
      expect(await card(page, 'needs-approval', id).count()).toBe(0);
      await lane(page).getByText('No task is waiting for a human').waitFor();
      expect([...errors, ...approvalErrors]).toEqual([]);
    } finally {
      await tools.close();
      await tasks.close();
      await context.close();
      await serve.cleanup();
    }
  });
});
