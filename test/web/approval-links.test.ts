// Links from the board to one approval, in Chromium against a real `cairn serve` child: an agent
// (signed attach URL, bound as `builder`) claims a task over MCP and calls delete_path; the
// task's drawer lists the waiting call (tool, arguments, expiry) and follows a second call in
// and out live; its link opens the Approvals page scrolled to that approval, highlighted and
// focused, where the keyboard approves it and the MCP call completes. A link to a decided or
// unknown approval says so. (A back-filled history line is tested in task-history.test.ts.)
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Approval } from '../../src/broker/index.js';
import { type HttpClient, httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, attachAs, consoleErrors, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

const AGENT = 'builder';
/** Generous: the machine may be loaded. */
const POLL = { timeout: 15_000, interval: 50 };
const PATH = '/srv/builds/2024-old';

async function rest<T>(serve: ServeProcess, path: string, body?: object): Promise<T> {
  const res = await fetch(`${serve.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${apiToken(serve)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Polls `GET /api/approvals` (pending, optionally one task's) until it lists `n`; oldest first. */
async function pendingOf(serve: ServeProcess, n: number, taskId?: string): Promise<Approval[]> {
  const q = taskId === undefined ? '' : `&taskId=${encodeURIComponent(taskId)}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { approvals } = await rest<{ approvals: Approval[] }>(
      serve,
      `/api/approvals?limit=500${q}`,
    );
    if (approvals.length >= n) return approvals.reverse();
    if (Date.now() > deadline) throw new Error(`${approvals.length} of ${n} approvals appeared`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Follows `GET /api/board/stream` as the page does. Its events' marks name the pending
 * task-linked approvals, so `until(id)` resolves once the server's poller has seen `id`.
 */
function followBoard(serve: ServeProcess): { until(id: string): Promise<void>; close(): void } {
  const abort = new AbortController();
  let text = '';
  // Aborting rejects the pending body read too (not only the fetch): the whole chain is caught,
  // or vitest reports the AbortError as an unhandled rejection and fails the run.
  void (async () => {
    const res = await fetch(`${serve.base}/api/board/stream`, {
      headers: { authorization: `Bearer ${apiToken(serve)}` },
      signal: abort.signal,
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body ?? []) text += decoder.decode(chunk, { stream: true });
  })().catch(() => undefined);
  return {
    async until(id) {
      await expect.poll(() => text.includes(id), POLL).toBe(true);
    },
    close: () => abort.abort(),
  };
}

const deny = (serve: ServeProcess, id: string) =>
  rest(serve, `/api/approvals/${encodeURIComponent(id)}`, { decision: 'deny', decidedBy: 'test' });

async function createClaimed(tasks: HttpClient, title: string): Promise<string> {
  const created = await tasks.client.callTool({ name: 'create_task', arguments: { title } });
  const { id } = created.structuredContent as { id: string };
  const claim = { taskId: id, assigneeAgentId: AGENT };
  expect(
    (await tasks.client.callTool({ name: 'claim_task', arguments: claim })).isError,
  ).toBeFalsy();
  return id;
}

/** A string (not a function): test/ typechecks without the DOM lib. */
const focused = (page: Page, attribute: string): Promise<string | null> =>
  page.evaluate<string | null>(
    `document.activeElement?.getAttribute(${JSON.stringify(attribute)}) ?? null`,
  );

/** The drawer's waiting calls list (the drawer opened from the card with the keyboard). */
async function openWaitingCalls(page: Page, taskId: string) {
  await page.locator(`[data-column="needs-approval"] [data-task-id="${taskId}"]`).focus();
  await page.keyboard.press('Enter');
  return page.getByRole('dialog').getByRole('list', { name: 'Calls waiting for approval' });
}

/** On the Approvals page: the linked card is in view, highlighted and focused. */
async function expectFocusedCard(page: Page, approvalId: string): Promise<void> {
  const card = page.locator(`article[data-approval-id="${approvalId}"]`);
  await card.waitFor();
  await expect.poll(() => focused(page, 'data-approval-id'), POLL).toBe(approvalId);
  expect(await card.getAttribute('aria-current')).toBe('true');
  expect(await card.getAttribute('class')).toContain('linked');
  const box = await card.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.y).toBeGreaterThanOrEqual(0);
  expect(box?.y).toBeLessThan(800);
}

/** The "no longer pending" sentence for `/approvals?id=<id>`; it takes focus. */
async function goneText(page: Page, base: string, id: string): Promise<string> {
  await page.goto(`${base}/approvals?id=${encodeURIComponent(id)}`);
  const gone = page.getByTestId('approval-gone');
  await gone.waitFor();
  await expect.poll(() => focused(page, 'data-testid'), POLL).toBe('approval-gone');
  return gone.innerText();
}

describe.skipIf(!HAVE_CHROMIUM)('links to one approval in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('lists a task’s waiting calls live in the drawer; a link focuses the approval', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const tasks = await attachAs(serve, 'tasks', AGENT);
    const tools = await attachAs(serve, 'tools', AGENT);
    // Unbound (master token): its calls name no task, and stack above the task's on the page.
    const other = await httpClient(`${serve.base}/api/mcp/tools`, apiToken(serve));
    const fillers: Array<Promise<unknown>> = [];
    const board = followBoard(serve);
    try {
      await page.goto(loginUrl(serve));
      await page.getByText('The board is empty').waitFor();
      const taskId = await createClaimed(tasks, 'Prune old builds');
      const call = tools.client.callTool({ name: 'delete_path', arguments: { path: PATH } });
      call.catch(() => undefined); // awaited below; a failed run's cleanup settles it
      const [first] = await pendingOf(serve, 1, taskId);
      if (first === undefined) throw new Error('no approval for the task');
      for (let i = 0; i < 5; i++) {
        const args = { path: `/tmp/filler-${i}` };
        fillers.push(other.client.callTool({ name: 'delete_path', arguments: args }));
      }
      await pendingOf(serve, 6);

      const lane = page.locator('[data-column="needs-approval"]');
      await lane.locator(`[data-task-id="${taskId}"]`).waitFor();
      const cardLink = lane.getByRole('link', { name: 'Open Approvals' });
      expect(await cardLink.getAttribute('href')).toBe(`/approvals?id=${first.id}`);

      const list = await openWaitingCalls(page, taskId);
      const item = list.locator(`li[data-approval-id="${first.id}"]`);
      await item.waitFor();
      expect(await item.innerText()).toMatch(
        new RegExp(`^delete_path path: ${PATH} expires in \\d+ (s|min)$`),
      );
      expect(await item.getByRole('link').getAttribute('href')).toBe(`/approvals?id=${first.id}`);

      // Live: the task's next call appears without a reload, and leaves once denied.
      const second = tools.client.callTool({ name: 'delete_path', arguments: { path: '/srv/x' } });
      const secondId = (await pendingOf(serve, 2, taskId))[1]?.id ?? '';
      await list.locator(`li[data-approval-id="${secondId}"]`).waitFor();
      expect(await list.locator('li').count()).toBe(2);
      // The stream is a poll (250 ms) of a mark: a call that starts and ends between two polls
      // is no change, so decide only once the mark has carried it.
      await board.until(secondId);
      await deny(serve, secondId);
      await list.locator(`li[data-approval-id="${secondId}"]`).waitFor({ state: 'detached' });
      expect((await second).isError).toBe(true);

      // The drawer's link, with the keyboard: the Approvals page focuses that approval.
      await item.getByRole('link').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/approvals?id=${first.id}`);
      await expectFocusedCard(page, first.id);
      await page.keyboard.press('Tab');
      expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe(
        'Approve once',
      );
      await page.keyboard.press('Enter');
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ path: PATH });
      await page.locator(`article[data-approval-id="${first.id}"]`).waitFor({ state: 'detached' });
      expect(new URL(page.url()).search).toBe('');
      expect(await page.getByTestId('approval-gone').count()).toBe(0);

      // Links to calls no longer pending say what became of them.
      expect(await goneText(page, serve.base, first.id)).toMatch(
        /^Approval \S{8} \(delete_path from builder\) is no longer pending: approved once by dashboard at /,
      );
      expect(await goneText(page, serve.base, secondId)).toMatch(
        /is no longer pending: denied by test at /,
      );
      expect(errors).toEqual([]);
      expect(await goneText(page, serve.base, 'no-such-approval')).toBe(
        'Approval no-such- does not exist.',
      );
      // The lookup's 404 (Chromium logs failed loads) is the only console error allowed.
      expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    } finally {
      board.close();
      for (const a of await pendingOf(serve, 0).catch(() => [])) {
        await deny(serve, a.id).catch(() => undefined);
      }
      await Promise.allSettled(fillers);
      await other.close();
      await tools.close();
      await tasks.close();
      await page.close();
      await serve.cleanup();
    }
  });
});
