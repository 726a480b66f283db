// Migration 33 on a SQLite database written before it: a room's counter row starts at its
// highest post, so the next post continues the room's numbers (and a new room starts at 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';
import { nextInsertionSeq } from './write-counters.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig33-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const NEXT =
  'INSERT INTO room_seqs (room_id, seq) VALUES (?, 1) ON CONFLICT (room_id) DO UPDATE SET seq = room_seqs.seq + 1 RETURNING seq';

describe('migration 33 (room counters)', () => {
  it('seeds each room counter from its highest post', async () => {
    const path = join(dir, 'old.db');
    const db = sqliteBefore(path, 33);
    const post = db.prepare(
      "INSERT INTO room_posts (room_id, seq, author_agent_id, kind, text, created_at) VALUES (?, ?, 'a', 'message', 'hi', 5)",
    );
    for (const seq of [1, 2, 3]) post.run('team:t', seq);
    post.run('#c', 1);
    db.prepare(
      "INSERT INTO tasks (id, title, status, created_at, updated_at, seq) VALUES ('old', 'x', 'todo', 5, 5, 7)",
    ).run();
    db.close();
    const store = await openSqliteStore(path);
    try {
      const seqs = await store.write(async (tx) => ({
        team: await tx.get<{ seq: number }>(NEXT, ['team:t']),
        channel: await tx.get<{ seq: number }>(NEXT, ['#c']),
        fresh: await tx.get<{ seq: number }>(NEXT, ['team:new']),
        task: await nextInsertionSeq(tx, 'tasks'),
      }));
      expect(seqs).toEqual({ team: { seq: 4 }, channel: { seq: 2 }, fresh: { seq: 1 }, task: 8 });
    } finally {
      await store.close();
    }
  });
});
