// Migration 7: a scope key per memory item that the full-text and vector indexes can filter
// on, so a search scores only the caller's visible items instead of every match. The key is
// derived in SQL (generated column) and mirrored in JS by `scopeKey` in memory-index.ts.
import type { Migration, MigrationDb } from './migration-types.js';

/** The generated-column expression; '' for items no search may return. */
const SCOPE_KEY_SQL = `CASE WHEN deleted_at IS NULL AND lifecycle = 'active'
  AND kind IN ('fact','procedure')
  THEN 'zs' || hex(tenant_id) || 'x' || hex(team_id) || 'x' || hex(agent_id) ELSE '' END`;

const COLUMNS = 'title, content, tags, scope_key';
const NEW = (p: string): string => `${p}.title, ${p}.content, ${p}.tags, ${p}.scope_key`;

/** The vec0 table for `dims`-d vectors: cosine, partitioned by scope key, 256-row chunks
 * (vec0 allocates a whole chunk per partition; 1,024 wasted ~2 MB per small scope at 512-d). */
export const createVecTableSql = (dims: number): string =>
  `CREATE VIRTUAL TABLE IF NOT EXISTS memory_vec_p${dims} USING vec0(
    embedding float[${dims}] distance_metric=cosine, scope_key text partition key, chunk_size=256)`;

/** Copies each per-dimension vec0 table into one partitioned by scope key, then drops it. */
function partitionVectors(db: MigrationDb): void {
  const tables = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'memory_vec_d[0-9]*'",
  );
  for (const { name } of tables) {
    const dims = Number(name.slice('memory_vec_d'.length));
    if (!Number.isInteger(dims) || dims < 1) continue;
    db.exec(createVecTableSql(dims));
    db.exec(`INSERT INTO memory_vec_p${dims}(rowid, embedding, scope_key)
      SELECT v.rowid, v.embedding, m.scope_key FROM ${name} v
      JOIN memory_items m ON m.rowid = v.rowid`);
    db.exec(`DROP TABLE ${name}`);
  }
}

export const SCOPE_KEY_MIGRATION: Migration = {
  version: 7,
  name: 'memory scope key in the full-text and vector indexes',
  sql: `
    ALTER TABLE memory_items ADD COLUMN scope_key TEXT
      GENERATED ALWAYS AS (${SCOPE_KEY_SQL}) VIRTUAL;
    DROP TRIGGER memory_items_ai;
    DROP TRIGGER memory_items_ad;
    DROP TRIGGER memory_items_au;
    DROP TABLE memory_fts;
    CREATE VIRTUAL TABLE memory_fts USING fts5(
      ${COLUMNS},
      content = 'memory_items', content_rowid = 'rowid',
      tokenize = 'porter unicode61'
    );
    INSERT INTO memory_fts(memory_fts) VALUES ('rebuild');
    CREATE TRIGGER memory_items_ai AFTER INSERT ON memory_items BEGIN
      INSERT INTO memory_fts(rowid, ${COLUMNS}) VALUES (new.rowid, ${NEW('new')});
    END;
    CREATE TRIGGER memory_items_ad AFTER DELETE ON memory_items BEGIN
      INSERT INTO memory_fts(memory_fts, rowid, ${COLUMNS})
      VALUES ('delete', old.rowid, ${NEW('old')});
    END;
    CREATE TRIGGER memory_items_au AFTER UPDATE OF title, content, tags, kind, tenant_id,
      team_id, agent_id, lifecycle, deleted_at ON memory_items BEGIN
      INSERT INTO memory_fts(memory_fts, rowid, ${COLUMNS})
      VALUES ('delete', old.rowid, ${NEW('old')});
      INSERT INTO memory_fts(rowid, ${COLUMNS}) VALUES (new.rowid, ${NEW('new')});
    END;
  `,
  up: partitionVectors,
};
