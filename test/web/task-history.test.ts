// A task's status history in the drawer, in Chromium against a real `cairn serve` child: a task
// created over MCP and moved on the page lists created → To do → In progress (newest first, the
// page's move by `user via dashboard`, the creation by the MCP client and its transport), an
// event that names nobody says so, and a task from before the event log (migration 13
// back-fills it when `cairn serve` opens the file) lists its one back-filled event as its
// status when history began.
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempCore, tempDir } from '../helpers.js';
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

/** A task whose one event names nobody: what every unbound session's change looked like. */
async function unrecordedTask(dbPath: string): Promise<string> {
  const seeded = await tempCore({ dbPath, dbUrl: '' });
  try {
    return (await seeded.core.board.createTask({ title: 'Unrecorded task' })).id;
  } finally {
    await seeded.core.close();
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
    const anonId = await unrecordedTask(join(dir.path, 'cairn.db'));
    // SQLite on both projects: the old task is a SQLite file from before migration 13, which
    // `cairn serve` back-fills when it opens the file (PostgreSQL starts at the current schema).
    const serve = await spawnServe(['--db', join(dir.path, 'cairn.db')], { CAIRN_DB_URL: '' });
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
      expect(moved).toEqual([
        'To do → In progress by user via dashboard',
        'created → To do by cairn-http-test via HTTP',
      ]);
      // An event that names no actor, client or transport (as before migration 19) says so.
      expect(await historyOf(page, anonId)).toEqual(['created → To do by an unrecorded session']);
      await page.locator(`[data-task-id="${anonId}"]`).press('Enter');
      await page.getByRole('dialog').locator('.who[title*="migration 19"]').waitFor();
      await page.keyboard.press('Escape');

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
