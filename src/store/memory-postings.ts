// Memory's corpus for the postings engine: memory items (title, content, tags weighted as
// FTS5's bm25(memory_fts, 2.0, 1.0, 0.5)), the prose tokenizer, partitioned by scope key
// (memory_scope_ids maps a key to its partition id). Tables from migration 14.
import { proseTokenizer, type RankedDoc } from '../search/index.js';
import { jsonIds, jsonTexts } from './json-lists.js';
import { PostingsCache } from './postings-cache.js';
import { defineCorpus } from './postings-corpus.js';
import type { Queryable } from './types.js';

interface ItemText {
  rowid: number;
  title: string;
  content: string;
  tags: string;
  scope_key: string;
}

async function scopeIdOf(db: Queryable, key: string): Promise<number> {
  const row =
    (await db.get<{ id: number }>('SELECT id FROM memory_scope_ids WHERE key = ?', [key])) ??
    (await db.get<{ id: number }>('INSERT INTO memory_scope_ids(key) VALUES (?) RETURNING id', [
      key,
    ]));
  if (row === undefined) throw new Error('scope id insert returned nothing');
  return row.id;
}

/** The observations' partition key (scope keys start with `zs`, so it names no scope). */
const OBSERVATION_KEY = 'observations';

export const MEMORY_CORPUS = defineCorpus({
  name: 'memory',
  tables: {
    terms: 'memory_terms',
    docs: 'memory_postings_docs',
    df: 'memory_postings_df',
    stats: 'memory_postings_stats',
    dirty: 'memory_postings_dirty',
  },
  columns: { doc: 'item_id', partition: 'scope_id' },
  dirtyOrder: 'item_id',
  fieldWeights: [2, 1, 0.5],
  tokenizer: proseTokenizer,
  async load(db, ids) {
    // Items with an empty scope key (deleted, superseded, other kinds) are not searchable, but
    // for live observations on PostgreSQL: SQLite searches them (a filter naming no scope) with
    // FTS5, PostgreSQL only with these postings, in a partition of their own.
    const observations =
      db.dialect === 'sqlite'
        ? ''
        : ` OR (kind = 'observation' AND deleted_at IS NULL AND lifecycle = 'active')`;
    const items = await db.all<ItemText>(
      `SELECT rowid, title, content, tags,
         CASE WHEN scope_key <> '' THEN scope_key ELSE '${OBSERVATION_KEY}' END AS scope_key
       FROM memory_items
       WHERE rowid IN ${jsonIds(db.dialect)} AND (scope_key <> ''${observations}) ORDER BY rowid`,
      [JSON.stringify(ids)],
    );
    const partitions = new Map<string, number>();
    for (const { scope_key: key } of items)
      if (!partitions.has(key)) partitions.set(key, await scopeIdOf(db, key));
    return items.map((item) => ({
      id: item.rowid,
      partition: partitions.get(item.scope_key) ?? 0,
      fields: [item.title, item.content, item.tags],
    }));
  },
});

/** One connection's memory ranking: scope keys → partitions, then the shared cache. */
export class MemoryPostings {
  readonly cache = new PostingsCache(MEMORY_CORPUS);
  readonly #scopeIds = new Map<string, number>();

  async #scopeIdsOf(db: Queryable, keys: readonly string[]): Promise<number[]> {
    const missing = keys.filter((k) => !this.#scopeIds.has(k));
    if (missing.length > 0) {
      const rows = await db.all<{ id: number; key: string }>(
        `SELECT id, key FROM memory_scope_ids WHERE key IN ${jsonTexts(db.dialect)}`,
        [JSON.stringify(missing)],
      );
      for (const r of rows) this.#scopeIds.set(r.key, r.id);
    }
    return keys.flatMap((k) => {
      const id = this.#scopeIds.get(k);
      return id === undefined ? [] : [id];
    });
  }

  /**
   * The `limit` best items of the scopes for `query` by BM25 (IDF over all live items, as
   * FTS5), best first; null when some items are not indexed yet (the caller then ranks with
   * FTS5), unless `evenBehind` (no FTS5: rank what is indexed). Run inside a read snapshot.
   */
  async rank(
    db: Queryable,
    query: string,
    scopeKeys: readonly string[],
    limit: number,
    options: { evenBehind?: boolean } = {},
  ): Promise<RankedDoc[] | null> {
    if (options.evenBehind !== true && (await this.cache.hasBacklog(db))) return null;
    const terms = MEMORY_CORPUS.tokenizer.queryTerms(query);
    if (terms.length === 0 || scopeKeys.length === 0 || limit < 1) return [];
    return (await this.cache.rank(db, terms, await this.#scopeIdsOf(db, scopeKeys), limit)).hits;
  }

  /**
   * The `limit` best items of every scope for `query` (ranked as `rank`), and how many items
   * matched a term: for a filter that names no scopes. Ranks what is indexed (see `rank`).
   */
  async rankAll(
    db: Queryable,
    query: string,
    limit: number,
  ): Promise<{ hits: RankedDoc[]; matched: number }> {
    const terms = MEMORY_CORPUS.tokenizer.queryTerms(query);
    const scopes = await db.all<{ id: number }>('SELECT id FROM memory_scope_ids ORDER BY id');
    return this.cache.rank(
      db,
      terms,
      scopes.map((s) => s.id),
      limit,
    );
  }
}
