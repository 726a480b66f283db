// A move the server refuses, in Chromium against a real `cairn serve` child: the page holds a
// stale board (its refetches are held back) while an agent claims the task over MCP; the drop
// the page believes legal gets a 409, the card returns to its column with the server's message.
// Also: an older board answer that arrives after a newer one is dropped.
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, dragCard, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

const card = (page: Page, column: string, id: string) =>
  page.locator(`[data-column="${column}"] [data-task-id="${id}"]`);

async function tasksTool(serve: ServeProcess, name: string, args: object): Promise<unknown> {
  const c = await httpClient(`${serve.base}/api/mcp/tasks`, apiToken(serve));
  try {
    const res = await c.client.callTool({ name, arguments: { ...args } });
    expect(res.isError).toBeFalsy();
    return res.structuredContent;
  } finally {
    await c.close();
  }
}

/** From now on, holds back every board list refetch until `release` is called. */
async function holdRefetches(page: Page): Promise<{ held: Route[]; release(): Promise<void> }> {
  const held: Route[] = [];
  await page.route(
    (url) => url.pathname === '/api/board/tasks',
    (route) => void held.push(route),
  );
  return {
    held,
    async release() {
      await page.unroute((url) => url.pathname === '/api/board/tasks');
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

describe.skipIf(!HAVE_CHROMIUM)('a refused move in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('rolls a card back with the server message when the task changed meanwhile', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      const { id } = (await tasksTool(serve, 'create_task', { title: 'Stale card' })) as {
        id: string;
      };
      await page.goto(loginUrl(serve));
      await card(page, 'todo', id).waitFor();
      const hold = await holdRefetches(page);
      await tasksTool(serve, 'claim_task', { taskId: id, assigneeAgentId: 'agent-7' });
      await expect.poll(() => hold.held.length, { timeout: 5000 }).toBeGreaterThan(0);
      await dragCard(page, id, 'backlog');
      await page.getByText(/Move refused, rolled back: .*in_progress → backlog/).waitFor();
      expect(await card(page, 'todo', id).count()).toBe(1);
      expect(await card(page, 'backlog', id).count()).toBe(0);
      await hold.release();
      await card(page, 'in_progress', id).waitFor();
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });

  it('ignores an older board answer that arrives after a newer one', async () => {
    const serve = await spawnServe();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    const create = async (title: string) =>
      ((await tasksTool(serve, 'create_task', { title })) as { id: string }).id;
    try {
      const first = await create('First');
      await page.goto(loginUrl(serve));
      await card(page, 'todo', first).waitFor();
      // The next refetch reads the server now but answers only when released.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      let intercepted = 0;
      await page.route(
        (url) => url.pathname === '/api/board/tasks',
        async (route) => {
          intercepted += 1;
          if (intercepted > 1) return route.continue();
          const stale = await route.fetch();
          await gate;
          return route.fulfill({ response: stale });
        },
      );
      const second = await create('Second');
      await expect.poll(() => intercepted, { timeout: 5000 }).toBe(1);
      const third = await create('Third');
      await card(page, 'todo', third).waitFor();
      expect(intercepted).toBeGreaterThan(1);
      release();
      // The stale answer (without Third) must not replace the newer list.
      await page.waitForTimeout(750);
      expect(await card(page, 'todo', third).count()).toBe(1);
      expect(await card(page, 'todo', second).count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
    }
  });
});
