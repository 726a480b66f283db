// Vectors on a real PostgreSQL without pgvector (Debian's PostgreSQL 15 has no package): float32
// BYTEA scanned by exact cosine in the store, ranking as SQLite does, and the one warning the
// core logs at start saying vector search is exact and slower.
import { join } from 'node:path';

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createCore } from '../../src/core/index.js';
import { openPgStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../helpers.js';
import { freshPgDatabase, pgAdminUrl } from '../pg-databases.js';
import { describeVectorContract } from './vector-contract.js';

const admin = pgAdminUrl() ?? '';

async function openFresh(
  onUrl?: (url: string) => void,
): Promise<{ store: Store; close(): Promise<void> }> {
  const db = await freshPgDatabase(admin);
  onUrl?.(db.url);
  const store = await openPgStore(db.url);
  return {
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

describeVectorContract('PostgreSQL without pgvector', () => openFresh());

describe('PostgreSQL without pgvector', () => {
  let pg: { store: Store; close(): Promise<void> };
  let dbUrl = '';
  let hasPgvector = false;
  beforeAll(async () => {
    pg = await openFresh((url) => {
      dbUrl = url;
    });
    const row = await pg.store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM pg_available_extensions WHERE name = 'vector'",
    );
    hasPgvector = (row?.n ?? 0) > 0;
  });
  afterAll(() => pg.close());

  it('stores vectors as BYTEA and says once that vector search is exact and slower', async (t) => {
    if (hasPgvector) t.skip();
    expect(pg.store.warnings).toEqual([]);
    expect(pg.store.vectorWarnings).toEqual([
      expect.stringMatching(/exact and slower without the pgvector extension/),
    ]);
    await pg.store.write(async (tx) => {
      const c = await tx.get<{ id: number }>(
        `INSERT INTO code_collections(name, root, mode, state, created_at, updated_at)
         VALUES ('c', '/tmp/c', 'filesystem', 'ready', 1, 1) RETURNING id`,
      );
      const f = await tx.get<{ id: number }>(
        `INSERT INTO code_files(collection_id, branch, path, size, mtime_ms, hash, lines, indexed_at)
         VALUES (?, '', 'a.ts', 1, 1, 'h', 1, 1) RETURNING id`,
        [c?.id ?? 0],
      );
      const k = await tx.get<{ id: number }>(
        `INSERT INTO code_chunks(file_id, collection_id, ordinal, kind, start_line, end_line, text)
         VALUES (?, ?, 0, 'function', 1, 1, 'x') RETURNING id`,
        [f?.id ?? 0, c?.id ?? 0],
      );
      await pg.store.codeIndex.putVectors(tx, 'm', [
        { chunkId: k?.id ?? 0, vector: Float32Array.of(1, 0, 0) },
      ]);
    });
    const type = await pg.store.get<{ t: string }>(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute
       WHERE attrelid = 'code_vec_p3'::regclass AND attname = 'embedding'`,
    );
    expect(type?.t).toBe('bytea');
  });

  it('two stores creating the same dimension’s table at once both commit', async () => {
    const other = await openPgStore(dbUrl);
    try {
      const items = await pg.store.write(async (tx) => {
        const ids: number[] = [];
        for (const id of ['r1', 'r2']) {
          const row = await tx.get<{ rowid: number }>(
            `INSERT INTO memory_items (id, kind, content, content_hash, created_at, updated_at)
             VALUES (?, 'fact', 'x', ?, 1, 1) RETURNING rowid`,
            [id, id],
          );
          ids.push(row?.rowid ?? 0);
        }
        return ids;
      });
      await Promise.all(
        [pg.store, other].map((s, i) =>
          s.write((tx) =>
            s.memoryIndex.putVectors(tx, 'm', [
              { rowid: items[i] ?? 0, vector: Float32Array.of(1, i, 0, 0, 0) },
            ]),
          ),
        ),
      );
      const near = await other.memoryIndex.nearest(
        'm',
        Float32Array.of(1, 0, 0, 0, 0),
        { sql: '1 = 1', params: [] },
        5,
      );
      expect(near.map((h) => h.rowid)).toEqual(items);
    } finally {
      await other.close();
    }
  });

  it('the core logs the warning once when it opens the store', async (t) => {
    if (hasPgvector) t.skip();
    const db = await freshPgDatabase(admin);
    const dir = tempDir();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (l: string) => void lines.push(l) });
    const core = await createCore({ dbPath: join(dir.path, 'x.db'), dbUrl: db.url, logger });
    try {
      const warned = lines.filter((l) => l.includes('exact and slower'));
      expect(warned).toHaveLength(1);
      expect(JSON.parse(warned[0] ?? '{}')).toMatchObject({ level: 40 });
    } finally {
      await core.close();
      await db.drop();
      dir.cleanup();
    }
  });
});
