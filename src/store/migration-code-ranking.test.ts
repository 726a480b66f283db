// Migration 23 on a database at migration 22 whose code postings were built the old way
// (fields symbol, signature, path, text at 3, 2, 1, 1) and whose chunks have vectors of the
// old embedding text: the old postings and vectors go, every chunk is marked, and opening the
// store rebuilds the postings with the measured fields, so the ranking changes as measured.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { codeTokenizer } from '../search/index.js';
import { CODE_CORPUS } from './code-postings.js';
import { createCodeVecSql } from './migration-code-postings.js';
import { PostingsCache } from './postings-cache.js';
import { defineCorpus } from './postings-corpus.js';
import { flushPostings, TermIds } from './postings.js';
import { openSqliteStore } from './sqlite.js';
import type { Queryable, SqlValue, Store } from './types.js';

let dir: string;
const stores: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-ranking-migration-'));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The code corpus as migration 21 shipped it. */
const OLD_CORPUS = defineCorpus({
  ...CODE_CORPUS,
  fieldWeights: [3, 2, 1, 1],
  bm25: { k1: 1.2, b: 0.75 },
  tokenizer: codeTokenizer,
  async load(db, ids) {
    return (
      await db.all<{ id: number; collection: number; fields: string }>(
        `SELECT c.id, c.collection_id AS collection,
           json_array(COALESCE(c.symbol, ''), COALESCE(c.signature, ''), f.path, c.text) AS fields
         FROM code_chunks c JOIN code_files f ON f.id = c.file_id
         WHERE c.id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
        [JSON.stringify(ids)],
      )
    ).map((c) => ({
      id: c.id,
      partition: c.collection,
      fields: JSON.parse(c.fields) as string[],
    }));
  },
});

const syncOf = (db: Database.Database): Queryable => ({
  dialect: 'sqlite',
  all: <T>(sql: string, params: readonly SqlValue[] = []) =>
    Promise.resolve(db.prepare(sql).all(...params) as T[]),
  get: <T>(sql: string, params: readonly SqlValue[] = []) =>
    Promise.resolve(db.prepare(sql).get(...params) as T | undefined),
  run: (sql: string, params: readonly SqlValue[] = []) =>
    Promise.resolve({ changes: db.prepare(sql).run(...params).changes }),
});

/** Two chunks: "plover" in a docstring of one, in the code of the other (shorter). */
const CHUNKS = `
  INSERT INTO code_collections(id, name, root, mode, created_at, updated_at)
    VALUES (1, 'old', '/tmp/old', 'filesystem', 1, 1);
  INSERT INTO code_files(id, collection_id, path, language, size, mtime_ms, hash, lines, indexed_at)
    VALUES (1, 1, 'lib/birds.py', 'python', 1, 1, 'h', 1, 1);
  INSERT INTO code_chunks(id, file_id, collection_id, ordinal, kind, symbol, signature, start_line,
      end_line, text)
    VALUES (1, 1, 1, 0, 'function', 'count_birds', 'def count_birds(seen)', 1, 3,
      'def count_birds(seen):
    """Tally the plovers seen on the shore today."""
    return len(seen)'),
           (2, 1, 1, 1, 'function', 'walk', 'def walk(bird)', 4, 6,
      'def walk(bird):
    plover = find(bird)
    return count(bird) + len(seen)');`;

/** A database at migration 22 with old postings built and one old 3-d vector per chunk. */
async function oldDatabase(path: string): Promise<void> {
  const db = sqliteBefore(path, 23);
  db.pragma('foreign_keys = ON');
  db.exec(CHUNKS);
  const sync = syncOf(db);
  db.exec('BEGIN');
  await flushPostings(sync, new TermIds(OLD_CORPUS).begin());
  db.exec('COMMIT');
  for (const sql of createCodeVecSql(3)) db.exec(sql);
  for (const id of [1, 2]) {
    db.prepare('INSERT INTO code_vec_p3(rowid, embedding, collection_id) VALUES (?, ?, 1)').run(
      BigInt(id),
      new Uint8Array(new Float32Array([1, 0, 0]).buffer),
    );
    db.prepare(
      "INSERT INTO code_vectors(chunk_id, collection_id, model, dims, embedded_at) VALUES (?, 1, 'stub:3', 3, 1)",
    ).run(id);
  }
  db.close();
}

const ids = (hits: readonly { chunkId: number }[]): number[] => hits.map((h) => h.chunkId);

describe('migration 23', () => {
  it('rebuilds code postings built the old way, on open, and drops the old vectors', async () => {
    const path = join(dir, 'old.db');
    await oldDatabase(path);
    // The old postings hold both chunks and nothing is marked.
    const before = new Database(path, { readonly: true });
    const oldStats = before
      .prepare('SELECT docs, total_length AS total FROM code_postings_stats')
      .get();
    expect(oldStats).toMatchObject({ docs: 2 });
    expect(before.prepare('SELECT COUNT(*) AS n FROM code_postings_dirty').get()).toEqual({ n: 0 });
    before.close();

    const store = await openSqliteStore(path);
    stores.push(store);
    const versions = await store.all<{ version: number }>(
      'SELECT version FROM schema_migrations WHERE version >= 22 ORDER BY version',
    );
    expect(versions.map((v) => v.version).slice(0, 2)).toEqual([22, 23]);
    // Opening the store started the background drain of the marked chunks.
    await expect
      .poll(() => store.codeIndex.pending([1]), { timeout: 10_000, interval: 20 })
      .toBe(0);
    const stats = await store.get<{ docs: number; total: number }>(
      'SELECT docs, total_length AS total FROM code_postings_stats',
    );
    // The prose field adds the docstring's tokens to the lengths.
    expect(stats?.docs).toBe(2);
    expect(stats?.total).toBeGreaterThan((oldStats as { total: number }).total);
    const hits = await store.codeIndex.fullText('plover', { collectionIds: [1] }, 5);
    expect(ids(hits)).toEqual([1, 2]);
    expect(ids(await store.codeIndex.fullText('tally shore', { collectionIds: [1] }, 5))).toEqual([
      1,
    ]);
    // Old vectors are gone from the bookkeeping and from the vec0 table.
    expect(await store.get('SELECT COUNT(*) AS n FROM code_vectors')).toEqual({ n: 0 });
    expect(await store.get('SELECT COUNT(*) AS n FROM code_vec_p3')).toEqual({ n: 0 });
  });

  it('ranked otherwise before the migration (so the order checked above is the change)', async () => {
    const path = join(dir, 'old.db');
    await oldDatabase(path);
    const db = new Database(path, { readonly: true });
    try {
      const terms = codeTokenizer.queryTerms('plover');
      const { hits } = await new PostingsCache(OLD_CORPUS).rank(syncOf(db), terms, [1], 5);
      expect(hits.map((h) => h.rowid)).toEqual([2, 1]);
    } finally {
      db.close();
    }
  });
});
