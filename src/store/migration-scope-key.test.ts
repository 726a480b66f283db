// Migration 7 on a database written before it: full-text rows are re-indexed with their scope
// key, vectors move into the partitioned vec0 table, and scoped search sees exactly what the
// visibility rules allow (global + own team, never another team or a superseded version).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import type { SqlFilter } from './memory-index.js';
import { scopeKey, type ScopePartition } from './scope-key.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig7-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ITEMS = [
  { rowid: 1, team: '', lifecycle: 'active', text: 'kestrel roost global', vec: [1, 0, 0, 0] },
  {
    rowid: 2,
    team: 't1',
    lifecycle: 'active',
    text: 'kestrel roost team one',
    vec: [0.9, 0.1, 0, 0],
  },
  { rowid: 3, team: 't2', lifecycle: 'active', text: 'kestrel roost team two', vec: [1, 0, 0, 0] },
  { rowid: 4, team: 't1', lifecycle: 'superseded', text: 'kestrel roost old', vec: [1, 0, 0, 0] },
] as const;

/** A file at schema version 6 with items and 4-d vectors in the old unpartitioned table. */
function writeOldDatabase(path: string): void {
  const db = sqliteBefore(path, 7);
  db.exec(
    'CREATE VIRTUAL TABLE memory_vec_d4 USING vec0(embedding float[4] distance_metric=cosine)',
  );
  for (const it of ITEMS) {
    db.prepare(
      `INSERT INTO memory_items (rowid, id, kind, team_id, title, content, content_hash, lifecycle, created_at, updated_at)
       VALUES (?, ?, 'fact', ?, 'note', ?, ?, ?, 1, 1)`,
    ).run(it.rowid, `id-${it.rowid}`, it.team, it.text, `h${it.rowid}`, it.lifecycle);
    db.prepare('INSERT INTO memory_vec_d4(rowid, embedding) VALUES (?, ?)').run(
      BigInt(it.rowid),
      new Uint8Array(Float32Array.from(it.vec).buffer),
    );
    db.prepare(
      "INSERT INTO memory_vectors (item_rowid, model, dims, embedded_at) VALUES (?, 'm', 4, 1)",
    ).run(it.rowid);
  }
  db.close();
}

const teamOne: SqlFilter = {
  sql: "m.deleted_at IS NULL AND m.lifecycle = 'active' AND m.team_id IN ('', ?)",
  params: ['t1'],
  partitions: [
    { tenant: '', team: '', agent: '' },
    { tenant: '', team: 't1', agent: '' },
  ],
};

describe('migration 7 (scope keys)', () => {
  it('re-indexes old rows and moves vectors into scope partitions', async () => {
    const path = join(dir, 'old.db');
    writeOldDatabase(path);
    const store = await openSqliteStore(path);
    try {
      const fts = await store.memoryIndex.fullText('kestrel', teamOne, 10);
      expect(fts.map((h) => h.rowid).sort()).toEqual([1, 2]);
      const near = await store.memoryIndex.nearest(
        'm',
        Float32Array.from([1, 0, 0, 0]),
        teamOne,
        10,
      );
      expect(near.map((h) => h.rowid).sort()).toEqual([1, 2]);
      const old = await store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'memory_vec_d4'",
      );
      expect(old?.n).toBe(0);
      const keys = await store.all<{ rowid: number; key: string }>(
        'SELECT rowid, scope_key AS key FROM memory_items ORDER BY rowid',
      );
      const live = (team: string): string => scopeKey({ tenant: '', team, agent: '' });
      expect(keys.map((k) => k.key)).toEqual([live(''), live('t1'), live('t2'), '']);
    } finally {
      await store.close();
    }
  });

  it('keeps the key in step when an item is superseded, and ignores hostile query text', async () => {
    const store = await openSqliteStore(join(dir, 'new.db'));
    try {
      await store.run(
        `INSERT INTO memory_items (id, kind, team_id, title, content, content_hash, created_at, updated_at)
         VALUES ('a', 'fact', 't1', 'note', 'heron nest zsx7431x', 'h', 1, 1)`,
      );
      const only: ScopePartition[] = [{ tenant: '', team: 't1', agent: '' }];
      const filter = { ...teamOne, partitions: only };
      expect(await store.memoryIndex.fullText('heron', filter, 5)).toHaveLength(1);
      // Typing another scope's key as a word matches content only, never the scope column.
      const other = scopeKey({ tenant: '', team: 't2', agent: '' });
      expect(await store.memoryIndex.fullText(`${other} "scope_key":`, filter, 5)).toEqual([]);
      await store.run("UPDATE memory_items SET lifecycle = 'superseded' WHERE id = 'a'");
      expect(await store.memoryIndex.fullText('heron', filter, 5)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
