// A task's status history in the drawer, in Chromium against a real `cairn serve` child: a task
// created over MCP and moved on the page lists created → To do → In progress (newest first, the
// page's move by `user`), and a task from before the event log (migration 13 back-fills it when
// `cairn serve` opens the file) lists its one back-filled event as its status when history began.
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempDir } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import {
  apiToken,
  consoleErrors,
  dragCard,
  HAVE_CHROMIUM,
  historyOf,
  launch,
  loginUrl,
  preHistoryDb,
} from './browser.js';

async function createTask(serve: ServeProcess, title: string): Promise<string> {
  const c = await httpClient(`${serve.base}/api/mcp/tasks`, apiToken(serve));
  try {
    const res = await c.client.callTool({ name: 'create_task', arguments: { title } });
    return (res.structuredContent as { id: string }).id;
  } finally {
    await c.close();
  }
}

describe.skipIf(!HAVE_CHROMIUM)('task history in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());

  it('shows created → in progress after a move, and the back-filled event of an old task', async () => {
    const dir = tempDir('cairn-web-history-');
    const legacyId = await preHistoryDb(join(dir.path, 'cairn.db'));
    const serve = await spawnServe(['--db', join(dir.path, 'cairn.db')]);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = consoleErrors(page);
    try {
      await page.goto(loginUrl(serve));
      await page.locator(`[data-task-id="${legacyId}"]`).waitFor();
      const id = await createTask(serve, 'Wire the history');
      await page.locator(`[data-column="todo"] [data-task-id="${id}"]`).waitFor();
      await dragCard(page, id, 'in_progress');
      await page.locator(`[data-column="in_progress"] [data-task-id="${id}"]`).waitFor();

      const moved = await historyOf(page, id);
      expect(moved).toHaveLength(2);
      expect(moved[0]).toMatch(/^To do → In progress by user/);
      expect(moved[1]).toMatch(/^created → To do by /);

      const legacy = await historyOf(page, legacyId);
      expect(legacy).toEqual(['Status Done (recorded when history began)']);
      // The migration's own reason stays at hand as the label's tooltip.
      await page.locator(`[data-task-id="${legacyId}"]`).press('Enter');
      const history = page.getByRole('list', { name: 'Status history' });
      await history.locator('li [title^="back-filled: "]').waitFor();
      expect(await history.locator('li').count()).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
      dir.cleanup();
    }
  });
});
