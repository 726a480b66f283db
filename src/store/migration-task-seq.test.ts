// Migration 32 on a database written before it: tasks and comments take their insertion order
// as `seq` (whatever their ids), and the sequence stays unique.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig32-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Ids inserted in this order, all in one millisecond, not in id order. */
const IDS = ['t-c', 't-a', 't-b'];

function writeBefore32(path: string): void {
  const db = sqliteBefore(path, 32);
  const task = db.prepare(
    "INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES (?, 'x', 'todo', 5, 5)",
  );
  const comment = db.prepare(
    "INSERT INTO task_comments (id, task_id, body, author_type, created_at) VALUES (?, 't-c', 'b', 'agent', 5)",
  );
  for (const id of IDS) task.run(id);
  for (const id of IDS) comment.run(`c${id}`);
  db.close();
}

describe('migration 32 (task and comment insertion sequence)', () => {
  it('numbers existing rows in insertion order and keeps the sequence unique', async () => {
    const path = join(dir, 'old.db');
    writeBefore32(path);
    const store = await openSqliteStore(path);
    try {
      const tasks = await store.all<{ id: string }>('SELECT id FROM tasks ORDER BY seq');
      expect(tasks.map((t) => t.id)).toEqual(IDS);
      const comments = await store.all<{ id: string }>('SELECT id FROM task_comments ORDER BY seq');
      expect(comments.map((c) => c.id)).toEqual(IDS.map((id) => `c${id}`));
      const dup = store.run(
        "INSERT INTO tasks (id, title, status, created_at, updated_at, seq) VALUES ('t-d', 'x', 'todo', 5, 5, 1)",
      );
      await expect(dup).rejects.toThrow(/UNIQUE/);
    } finally {
      await store.close();
    }
  });
});
