// Migration 34 on a SQLite file written before live observations were indexed in memory's
// postings: the live observation is marked dirty and indexed by the drain at open; a deleted
// one and a superseded one stay out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { openSqliteStore } from './sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-mig34-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 34 (observations in memory postings)', () => {
  it('indexes the live observations written before it, and only those', async () => {
    const path = join(dir, 'old.db');
    const db = sqliteBefore(path, 34);
    const insert = db.prepare(
      `INSERT INTO memory_items (id, kind, content, content_hash, lifecycle, created_at, updated_at, deleted_at)
       VALUES (?, 'observation', ?, ?, ?, 5, 5, ?)`,
    );
    insert.run('live', 'the flaky retry loop in the uploader', 'h1', 'active', null);
    insert.run('gone', 'a deleted observation about uploads', 'h2', 'active', 9);
    insert.run('old', 'a superseded observation about uploads', 'h3', 'superseded', null);
    // What the earlier code left: every row flushed, none of the observations indexed.
    db.prepare('DELETE FROM memory_postings_dirty').run();
    db.close();

    const store = await openSqliteStore(path);
    try {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const left = await store.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM memory_postings_dirty',
        );
        if (left?.n === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const docs = await store.all<{ id: string }>(
        `SELECT m.id FROM memory_postings_docs d JOIN memory_items m ON m.rowid = d.item_id
         WHERE d.terms IS NOT NULL ORDER BY m.id`,
      );
      expect(docs.map((d) => d.id)).toEqual(['live']);
    } finally {
      await store.close();
    }
  });
});
