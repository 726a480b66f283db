// Vectors through pgvector: PGlite with its vector extension served over the wire protocol
// (pglite-socket, one connection at a time, so the store's pool has one), the schema migrated
// on it, `vector(<dims>)` columns compared with `<=>`, ranking as SQLite does, and no warning.
import { PGlite } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPgStore, type Store } from '../../src/store/index.js';
import { describeVectorContract } from './vector-contract.js';

/** A fresh PGlite database on a free loopback port, and the store opened on it. */
async function openPglite(): Promise<{ store: Store; close(): Promise<void> }> {
  const db = await PGlite.create({ extensions: { vector, citext } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1' });
  await server.start();
  try {
    // host:port, the port the OS chose once the server listens.
    const url = `postgres://postgres@${server.getServerConn()}/postgres`;
    const store = await openPgStore(url, { poolSize: 1 });
    return {
      store,
      close: async () => {
        await store.close();
        await server.stop();
        await db.close();
      },
    };
  } catch (err) {
    await server.stop();
    await db.close();
    throw err;
  }
}

describeVectorContract('pgvector (PGlite)', openPglite);

describe('pgvector (PGlite)', () => {
  let pg: { store: Store; close(): Promise<void> };
  beforeAll(async () => {
    pg = await openPglite();
  });
  afterAll(() => pg.close());

  it('creates the extension, stores vector(<dims>) columns and warns of nothing', async () => {
    expect(pg.store.warnings).toEqual([]);
    expect(pg.store.vectorWarnings).toEqual([]);
    const ext = await pg.store.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM pg_extension WHERE extname = 'vector'",
    );
    expect(ext?.n).toBe(1);
    await pg.store.write(async (tx) => {
      const item = await tx.get<{ rowid: number }>(
        `INSERT INTO memory_items (id, kind, content, content_hash, created_at, updated_at)
         VALUES ('a', 'fact', 'x', 'h', 1, 1) RETURNING rowid`,
      );
      await pg.store.memoryIndex.putVectors(tx, 'm', [
        { rowid: item?.rowid ?? 0, vector: Float32Array.of(0.25, -1, 3) },
      ]);
    });
    const type = await pg.store.get<{ t: string }>(
      `SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute
       WHERE attrelid = 'memory_vec_p3'::regclass AND attname = 'embedding'`,
    );
    expect(type?.t).toBe('vector(3)');
    const near = await pg.store.memoryIndex.nearest(
      'm',
      Float32Array.of(0.25, -1, 3),
      { sql: '1 = 1', params: [] },
      5,
    );
    expect(near).toHaveLength(1);
    expect(near[0]?.distance).toBeCloseTo(0, 6);
  });
});
