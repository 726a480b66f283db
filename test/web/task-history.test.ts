// A task's status history in the drawer, in Chromium against a real `cairn serve` child: a task
// created over MCP and moved on the page lists created → To do → In progress (newest first, the
// page's move by `user`), and a task from before the event log (migration 13 back-fills it when
// `cairn serve` opens the file) lists its one back-filled event.
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { tempCore, tempDir } from '../helpers.js';
import { httpClient, type ServeProcess, spawnServe } from '../http/helpers.js';
import { apiToken, consoleErrors, dragCard, HAVE_CHROMIUM, launch, loginUrl } from './browser.js';

/** A database whose one task predates the event log: no events, migration 13 not yet applied. */
async function preHistoryDb(dbPath: string): Promise<string> {
  const seeded = await tempCore({ dbPath });
  try {
    const task = await seeded.core.board.createTask({ title: 'Legacy task', status: 'done' });
    await seeded.core.store.run('DELETE FROM task_events WHERE task_id = ?', [task.id]);
    await seeded.core.store.run('DELETE FROM schema_migrations WHERE version = 13');
    return task.id;
  } finally {
    await seeded.core.close();
  }
}

async function createTask(serve: ServeProcess, title: string): Promise<string> {
  const c = await httpClient(`${serve.base}/api/mcp/tasks`, apiToken(serve));
  try {
    const res = await c.client.callTool({ name: 'create_task', arguments: { title } });
    return (res.structuredContent as { id: string }).id;
  } finally {
    await c.close();
  }
}

/** The bits of a history `<li>` the test reads (test/ typechecks without the DOM lib). */
interface HistoryItem {
  innerText: string;
  querySelector(selector: string): { innerText: string } | null;
}

/** Opens a task's drawer with the keyboard; returns the history lines, newest first. */
async function historyOf(page: Page, id: string): Promise<string[]> {
  await page.locator(`[data-task-id="${id}"]`).focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('dialog').getByRole('list', { name: 'Status history' });
  await list.locator('li').first().waitFor();
  // Each line without its (locale-formatted) time.
  const lines = await list
    .locator('li')
    .evaluateAll((items: HistoryItem[]) =>
      items.map((li) => li.innerText.replace(li.querySelector('time')?.innerText ?? '', '').trim()),
    );
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  return lines;
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
      expect(legacy).toEqual([
        'created → Done by unknown (back-filled: earlier changes were not recorded)',
      ]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      await serve.cleanup();
      dir.cleanup();
    }
  });
});
