// In-memory inverted lists per partition of a corpus (a memory scope, a code collection),
// built from the durable forward index (postings.ts) on first use and kept current by replaying
// the rows whose change number passed the cache's. Ranking is exhaustive BM25 over the
// caller's partitions (src/search's PartitionIndex): exact, and cheap in typed arrays. One
// store's searches use it one at a time (PostgreSQL runs several reads at once).
import {
  IMPACT_SCALE,
  idf,
  matchAll,
  PartitionIndex,
  rankPartitions,
  type RankedDoc,
} from '../search/index.js';
import { textList } from './json-lists.js';
import type { PostingsCorpus } from './postings-corpus.js';
import { applyDf, loadDf } from './postings-df.js';
import type { Queryable } from './types.js';

/** Evict least-recently used partitions beyond this many cached postings (~10 bytes each). */
const MAX_ENTRIES = 8_000_000;
/** More changed rows than this since the last look: drop the cache instead of replaying. */
const MAX_REPLAY = 20_000;

interface Stats {
  seq: number;
  dfSeq: number;
  docs: number;
}

interface Loc {
  scope: number;
  slot: number;
}

/** One store's cache of one corpus's partition indexes. */
export class PostingsCache {
  readonly #scopes = new Map<number, PartitionIndex>();
  readonly #where = new Map<number, Loc>();
  /** Document frequency of every term over all live documents (FTS5's IDF basis). */
  #df: Map<number, number> | null = null;
  #seq = -1;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly corpus: PostingsCorpus) {}

  /** Runs `fn` after every earlier use of the cache finished (its state spans awaits). */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Applies every change committed since the last call (or drops the lists if too many). A
   * snapshot older than the cache (PostgreSQL reads overlapping a write) starts it over.
   */
  async #catchUp(db: Queryable): Promise<Stats> {
    const sql = this.corpus.sql[db.dialect];
    const stats = (await db.get<Stats>(sql.cacheStats)) ?? { seq: 0, dfSeq: 0, docs: 0 };
    if (stats.seq === this.#seq && this.#df !== null) return stats;
    if (stats.seq < this.#seq) {
      this.#drop();
      this.#df = null;
      this.#seq = -1;
    }
    // Deltas up to dfSeq were folded into the terms (and deleted): reload if we missed some.
    if (this.#df === null || this.#seq < stats.dfSeq) this.#df = await loadDf(db, this.corpus);
    else await applyDf(db, this.corpus, this.#df, this.#seq);
    const behind = this.#seq < 0 || this.#scopes.size === 0;
    const changed = behind
      ? []
      : await db.all<{ item: number; scope: number | null; terms: Uint8Array | null }>(
          sql.changedDocs,
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

  /** The partition's index, loaded from the forward index if absent or mostly dead. */
  async #scope(db: Queryable, scope: number): Promise<PartitionIndex> {
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
    const rows = await db.all<{ item: number; terms: Uint8Array }>(
      this.corpus.sql[db.dialect].partitionDocs,
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

  /**
   * The `limit` best documents of the partitions for the query terms by BM25 (IDF over all live
   * documents of the corpus, as FTS5), best first, and how many live documents matched a term.
   * Ranks what is indexed: documents still marked dirty rank as last flushed (callers check
   * `hasBacklog` when that matters). Run inside a read snapshot.
   */
  rank(
    db: Queryable,
    terms: readonly string[],
    partitions: readonly number[],
    limit: number,
  ): Promise<{ hits: RankedDoc[]; matched: number }> {
    if (terms.length === 0 || partitions.length === 0 || limit < 1)
      return Promise.resolve({ hits: [], matched: 0 });
    return this.#serial(async () => {
      const { docs: n } = await this.#catchUp(db);
      const df = this.#df ?? new Map<number, number>();
      const indexes = await this.#indexes(db, partitions);
      const weighted = (await this.#termIds(db, terms)).flatMap((id) => {
        const f = df.get(id) ?? 0;
        return f > 0 ? [{ id, w: idf(n, f) / IMPACT_SCALE }] : [];
      });
      return rankPartitions(indexes, weighted, limit);
    });
  }

  /**
   * The ids of the known `terms`, ordered by term (as SQLite's unique index on the term
   * returns them): scores sum in that order, so both backends give the same floating-point
   * sums to the last bit.
   */
  async #termIds(db: Queryable, terms: readonly string[]): Promise<number[]> {
    const rows = await db.all<{ id: number; term: string }>(this.corpus.sql[db.dialect].termIdsOf, [
      textList(db.dialect, terms),
    ]);
    return rows.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)).map((r) => r.id);
  }

  /** The partitions' indexes, in order. */
  async #indexes(db: Queryable, partitions: readonly number[]): Promise<PartitionIndex[]> {
    const out: PartitionIndex[] = [];
    for (const id of partitions) out.push(await this.#scope(db, id));
    return out;
  }

  /**
   * The documents of the partitions holding every one of `terms` (unranked): candidates for an
   * exact check. A term the corpus has never seen matches nothing. Run inside a read snapshot.
   */
  matchAll(
    db: Queryable,
    terms: readonly string[],
    partitions: readonly number[],
  ): Promise<number[]> {
    if (terms.length === 0 || partitions.length === 0) return Promise.resolve([]);
    return this.#serial(async () => {
      await this.#catchUp(db);
      const ids = await this.#termIds(db, terms);
      if (ids.length < new Set(terms).size) return [];
      return matchAll(await this.#indexes(db, partitions), ids);
    });
  }

  /** Whether some documents of the corpus are marked dirty (not yet in the postings). */
  async hasBacklog(db: Queryable): Promise<boolean> {
    return (await db.get(this.corpus.sql[db.dialect].anyDirty)) !== undefined;
  }
}
