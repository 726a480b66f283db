// In-memory inverted lists per scope, built from the durable forward index (postings.ts) on
// first use and kept current by replaying the rows whose change number passed the cache's.
// Ranking is exhaustive BM25 over the caller's scopes: exact, and cheap in typed arrays.
import {
  IMPACT_SCALE,
  idf,
  PartitionIndex,
  queryTerms,
  rankPartitions,
  type RankedDoc,
} from '../search/index.js';
import type { SyncDb } from './migration-types.js';
import { applyDf, loadDf } from './postings-df.js';

/** Evict least-recently used scopes beyond this many cached postings (~10 bytes each). */
const MAX_ENTRIES = 8_000_000;
/** More changed rows than this since the last look: drop the cache instead of replaying. */
const MAX_REPLAY = 20_000;

export type RankedItem = RankedDoc;

interface Stats {
  seq: number;
  dfSeq: number;
  docs: number;
}

interface Loc {
  scope: number;
  slot: number;
}

/** One store connection's cache of scope indexes. */
export class PostingsCache {
  readonly #scopes = new Map<number, PartitionIndex>();
  readonly #where = new Map<number, Loc>();
  readonly #scopeIds = new Map<string, number>();
  /** Document frequency of every term over all live items (FTS5's IDF basis). */
  #df: Map<number, number> | null = null;
  #seq = -1;

  /** Applies every change committed since the last call (or drops the lists if too many). */
  #catchUp(db: SyncDb): Stats {
    const stats = db.get<Stats>(
      'SELECT seq, df_seq AS dfSeq, docs FROM memory_postings_stats WHERE id = 1',
    ) ?? { seq: 0, dfSeq: 0, docs: 0 };
    if (stats.seq === this.#seq && this.#df !== null) return stats;
    // Deltas up to dfSeq were folded into memory_terms (and deleted): reload if we missed some.
    if (this.#df === null || this.#seq < stats.dfSeq) this.#df = loadDf(db);
    else applyDf(db, this.#df, this.#seq);
    const behind = this.#seq < 0 || this.#scopes.size === 0;
    const changed = behind
      ? []
      : db.all<{ item: number; scope: number | null; terms: Uint8Array | null }>(
          `SELECT item_id AS item, scope_id AS scope, terms FROM memory_postings_docs
           WHERE seq > ? ORDER BY seq LIMIT ?`,
          [this.#seq, MAX_REPLAY + 1],
        );
    if (behind || changed.length > MAX_REPLAY) this.#drop();
    else for (const row of changed) this.#apply(row.item, row.scope, row.terms);
    this.#seq = stats.seq;
    return stats;
  }

  #apply(item: number, scope: number | null, terms: Uint8Array | null): void {
    const at = this.#where.get(item);
    if (at !== undefined) {
      this.#scopes.get(at.scope)?.kill(at.slot);
      this.#where.delete(item);
    }
    const index = scope === null ? undefined : this.#scopes.get(scope);
    if (index === undefined || scope === null || terms === null) return;
    this.#where.set(item, { scope, slot: index.add(item, terms) });
  }

  #drop(): void {
    this.#scopes.clear();
    this.#where.clear();
  }

  #forget(scope: number): void {
    const index = this.#scopes.get(scope);
    if (index === undefined) return;
    for (const item of index.items) {
      if (this.#where.get(item)?.scope === scope) this.#where.delete(item);
    }
    this.#scopes.delete(scope);
  }

  /** The scope's index, loaded from the forward index if absent or mostly dead. */
  #scope(db: SyncDb, scope: number): PartitionIndex {
    let index = this.#scopes.get(scope);
    if (index !== undefined && index.deadCount * 4 > index.items.length + 64) {
      this.#forget(scope);
      index = undefined;
    }
    if (index !== undefined) {
      this.#scopes.delete(scope); // re-insert: Map order is the LRU order
      this.#scopes.set(scope, index);
      return index;
    }
    const rows = db.all<{ item: number; terms: Uint8Array }>(
      'SELECT item_id AS item, terms FROM memory_postings_docs WHERE scope_id = ? AND terms IS NOT NULL',
      [scope],
    );
    index = PartitionIndex.load(rows);
    index.items.forEach((item, slot) => this.#where.set(item, { scope, slot }));
    this.#scopes.set(scope, index);
    this.#evict(scope);
    return index;
  }

  #evict(keep: number): void {
    let total = 0;
    for (const index of this.#scopes.values()) total += index.entries;
    for (const [scope, index] of this.#scopes) {
      if (total <= MAX_ENTRIES) return;
      if (scope === keep) continue;
      total -= index.entries;
      this.#forget(scope);
    }
  }

  #scopeIdsOf(db: SyncDb, keys: readonly string[]): number[] {
    const missing = keys.filter((k) => !this.#scopeIds.has(k));
    if (missing.length > 0) {
      const rows = db.all<{ id: number; key: string }>(
        'SELECT id, key FROM memory_scope_ids WHERE key IN (SELECT value FROM json_each(?))',
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
   * FTS5), best first; null when some
   * items are not indexed yet (the caller then ranks with FTS5). Run inside a read snapshot.
   */
  rank(
    db: SyncDb,
    query: string,
    scopeKeys: readonly string[],
    limit: number,
  ): RankedItem[] | null {
    if (db.get('SELECT 1 AS dirty FROM memory_postings_dirty LIMIT 1') !== undefined) return null;
    const stems = queryTerms(query);
    if (stems.length === 0 || scopeKeys.length === 0 || limit < 1) return [];
    const { docs: n } = this.#catchUp(db);
    const df = this.#df ?? new Map<number, number>();
    const scopes = this.#scopeIdsOf(db, scopeKeys).map((id) => this.#scope(db, id));
    const weighted = db
      .all<{ id: number }>(
        'SELECT id FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))',
        [JSON.stringify(stems)],
      )
      .flatMap(({ id }) => {
        const f = df.get(id) ?? 0;
        return f > 0 ? [{ id, w: idf(n, f) / IMPACT_SCALE }] : [];
      });
    return rankPartitions(scopes, weighted, limit).hits;
  }
}
