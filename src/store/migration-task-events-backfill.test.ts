// Migration 13 on a database written before it: each task without a status event gets exactly
// one (its current status at its last update, no from-status, no actor, reason `back-filled: …`),
// tasks that already have events keep them untouched, and opening the file again adds nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { BACKFILL_REASON } from './migration-task-events-backfill.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig13-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// id, status, created_at, updated_at, deleted_at
const OLD_TASKS = [
  ['T-old-todo', 'todo', 100, 100, null],
  ['T-old-done', 'done', 110, 250, null],
  ['T-old-gone', 'cancelled', 120, 300, 301],
] as const;

/** A file at schema version 12: three tasks from before migration 11, one with its events. */
function writeVersion12(path: string): void {
  const db = sqliteBefore(path, 13);
  const task = db.prepare(
    `INSERT INTO tasks (id, title, status, created_at, updated_at, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, status, created, updated, deleted] of OLD_TASKS) {
    task.run(id, `title of ${id}`, status, created, updated, deleted);
  }
  task.run('T-new', 'recent', 'in_progress', 400, 420, null);
  const event = db.prepare(
    `INSERT INTO task_events (task_id, at, from_status, to_status, actor, reason)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  event.run('T-new', 400, null, 'todo', 'ann', 'create');
  event.run('T-new', 420, 'todo', 'in_progress', 'ann', 'claim');
  db.close();
}

const EVENTS = `SELECT task_id, at, from_status, to_status, actor, reason FROM task_events
  ORDER BY task_id, id`;

describe('migration 13 (task events back-fill)', () => {
  it('adds one marked event per task without events, and only once', async () => {
    const path = join(dir, 'old.db');
    writeVersion12(path);
    for (let open = 0; open < 2; open++) {
      const store = await openSqliteStore(path);
      try {
        const rows = await store.all<Record<string, unknown>>(EVENTS);
        expect(rows.map((r) => Object.values(r))).toEqual([
          ['T-new', 400, null, 'todo', 'ann', 'create'],
          ['T-new', 420, 'todo', 'in_progress', 'ann', 'claim'],
          ['T-old-done', 250, null, 'done', null, BACKFILL_REASON],
          ['T-old-gone', 300, null, 'cancelled', null, BACKFILL_REASON],
          ['T-old-todo', 100, null, 'todo', null, BACKFILL_REASON],
        ]);
        expect(BACKFILL_REASON).toMatch(/^back-filled: /);
        const versions = await store.all<{ version: number }>(
          'SELECT version FROM schema_migrations WHERE version = 13',
        );
        expect(versions).toHaveLength(1);
      } finally {
        await store.close();
      }
    }
  });

  it('is a no-op on a new database', async () => {
    const store = await openSqliteStore(join(dir, 'new.db'));
    try {
      expect(await store.all('SELECT * FROM task_events')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
