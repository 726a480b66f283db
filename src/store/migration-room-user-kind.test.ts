// Migration 10 on a database written before it: room_posts is rebuilt with kind 'user' allowed,
// every post (and its backplane envelope side row) survives unchanged, and the table keeps its
// WITHOUT ROWID (room_id, seq) primary key and its CHECK on kind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig10-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const POSTS = [
  ['team:t1', 1, 'ann', 'message', 'first', 10],
  ['team:t1', 2, 'system', 'system', 'ann joined', 11],
  ['team:t2', 1, 'bob', 'message', 'other team', 12],
  ['#general', 1, 'operator', 'message', 'hello', 13],
] as const;

/** A file at schema version 9 holding posts of both old kinds and one envelope. */
function writeVersion9(path: string): void {
  const db = sqliteBefore(path, 10);
  const insert = db.prepare(
    'INSERT INTO room_posts (room_id, seq, author_agent_id, kind, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const p of POSTS) insert.run(...p);
  db.prepare(
    `INSERT INTO room_envelopes (room_id, seq, id, type, payload) VALUES ('#general', 1, 'E1', 'text', '{"a":1}')`,
  ).run();
  expect(() => insert.run('team:t1', 3, 'user', 'user', 'too early', 14)).toThrow(/CHECK/);
  db.close();
}

const ALL = 'SELECT room_id, seq, author_agent_id, kind, text, created_at FROM room_posts';

describe('migration 10 (room posts of kind user)', () => {
  it('keeps every row, the key and the envelopes, and allows kind user', async () => {
    const path = join(dir, 'old.db');
    writeVersion9(path);
    const store = await openSqliteStore(path);
    try {
      const rows = await store.all<Record<string, unknown>>(`${ALL} ORDER BY created_at`);
      expect(rows.map((r) => Object.values(r))).toEqual(POSTS.map((p) => [...p]));
      const env = await store.get<{ id: string }>('SELECT id FROM room_envelopes');
      expect(env?.id).toBe('E1');
      const table = await store.get<{ sql: string }>(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'room_posts'",
      );
      expect(table?.sql).toMatch(/WITHOUT ROWID/);
      expect(table?.sql).toMatch(/PRIMARY KEY \(room_id, seq\)/);
      const add = (seq: number, kind: string) =>
        store.run(
          'INSERT INTO room_posts (room_id, seq, author_agent_id, kind, text, created_at) VALUES (?, ?, ?, ?, ?, 20)',
          ['team:t1', seq, 'user', kind, 'hi'],
        );
      await add(3, 'user');
      await expect(add(3, 'user')).rejects.toThrow(/UNIQUE|PRIMARY/);
      await expect(add(4, 'bogus')).rejects.toThrow(/CHECK/);
      const versions = await store.all<{ version: number }>(
        'SELECT version FROM schema_migrations WHERE version = 10',
      );
      expect(versions).toHaveLength(1);
      const leftover = await store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'room_posts_v10'",
      );
      expect(leftover?.n).toBe(0);
    } finally {
      await store.close();
    }
  });
});
