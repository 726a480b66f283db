// In-memory inverted lists per scope, built from the durable forward index (postings.ts) on
// first use and kept current by replaying the rows whose change number passed the cache's.
// Ranking is exhaustive BM25 over the caller's scopes: exact, and cheap in typed arrays.
import { IMPACT_SCALE, type SyncDb, unpackTerms } from './postings.js';
import { queryStems } from './tokenize.js';

/** Evict least-recently used scopes beyond this many cached postings (~6 bytes each). */
const MAX_ENTRIES = 8_000_000;
/** More changed rows than this since the last look: drop the cache instead of replaying. */
const MAX_REPLAY = 20_000;

export interface RankedItem {
  rowid: number;
  /** Σ idf × term weight, the BM25 score FTS5's bm25() gives (up to rounding). */
  bm25: number;
}

class List {
  slots = new Int32Array(16);
  impacts = new Uint16Array(16);
  n = 0;

  push(slot: number, impact: number): void {
    if (this.n === this.slots.length) {
      const slots = new Int32Array(this.n * 2);
      slots.set(this.slots);
      const impacts = new Uint16Array(this.n * 2);
      impacts.set(this.impacts);
      [this.slots, this.impacts] = [slots, impacts];
    }
    this.slots[this.n] = slot;
    this.impacts[this.n] = impact;
    this.n += 1;
  }
}

/** One scope's items: slot → item, term → (slot, impact) list, live document counts. */
class ScopeIndex {
  readonly items: number[] = [];
  readonly terms: (Uint32Array | null)[] = [];
  readonly lists = new Map<number, List>();
  /** Live items containing each term (the IDF's document frequency within this scope). */
  readonly df = new Map<number, number>();
  entries = 0;
  deadCount = 0;

  get live(): number {
    return this.items.length - this.deadCount;
  }

  isDead(slot: number): boolean {
    return this.terms[slot] === null;
  }

  add(item: number, blob: Uint8Array): number {
    const slot = this.items.length;
    const { ids, impacts } = unpackTerms(blob);
    this.items.push(item);
    this.terms.push(ids);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      let list = this.lists.get(id);
      if (list === undefined) this.lists.set(id, (list = new List()));
      list.push(slot, impacts[i] as number);
      this.df.set(id, (this.df.get(id) ?? 0) + 1);
    }
    this.entries += ids.length;
    return slot;
  }

  kill(slot: number): void {
    const ids = this.terms[slot];
    if (ids === null || ids === undefined) return;
    for (const id of ids) this.df.set(id, (this.df.get(id) ?? 1) - 1);
    this.terms[slot] = null;
    this.deadCount += 1;
  }
}

interface Loc {
  scope: number;
  slot: number;
}

/** The live top k, best first (score desc, then rowid asc). */
class TopK {
  readonly hits: RankedItem[] = [];
  constructor(readonly k: number) {}

  #before(a: RankedItem, bm25: number, rowid: number): boolean {
    return a.bm25 > bm25 || (a.bm25 === bm25 && a.rowid < rowid);
  }

  offer(rowid: number, bm25: number): void {
    const last = this.hits[this.k - 1];
    if (last !== undefined && this.#before(last, bm25, rowid)) return;
    let i = Math.min(this.hits.length, this.k - 1);
    while (i > 0 && !this.#before(this.hits[i - 1] as RankedItem, bm25, rowid)) i--;
    this.hits.splice(i, 0, { rowid, bm25 });
    if (this.hits.length > this.k) this.hits.pop();
  }
}

/** FTS5's IDF: ln((N − df + ½) / (df + ½)), floored at 1e-6 for very common terms. */
const idf = (n: number, df: number): number =>
  Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));

/** One store connection's cache of scope indexes. */
export class PostingsCache {
  readonly #scopes = new Map<number, ScopeIndex>();
  readonly #where = new Map<number, Loc>();
  readonly #scopeIds = new Map<string, number>();
  #seq = -1;

  /** Applies every change committed since the last call (or drops everything if too many). */
  #catchUp(db: SyncDb): void {
    const seq = db.get<{ seq: number }>('SELECT seq FROM memory_postings_stats WHERE id = 1')?.seq;
    if (seq === undefined || seq === this.#seq) return;
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
    this.#seq = seq;
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
  #scope(db: SyncDb, scope: number): ScopeIndex {
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
    index = new ScopeIndex();
    const rows = db.all<{ item: number; terms: Uint8Array }>(
      'SELECT item_id AS item, terms FROM memory_postings_docs WHERE scope_id = ? AND terms IS NOT NULL',
      [scope],
    );
    for (const row of rows)
      this.#where.set(row.item, { scope, slot: index.add(row.item, row.terms) });
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
   * The `limit` best items of the scopes for `query` by BM25 (IDF over those scopes' live
   * items), best first; null when some
   * items are not indexed yet (the caller then ranks with FTS5). Run inside a read snapshot.
   */
  rank(
    db: SyncDb,
    query: string,
    scopeKeys: readonly string[],
    limit: number,
  ): RankedItem[] | null {
    if (db.get('SELECT 1 AS dirty FROM memory_postings_dirty LIMIT 1') !== undefined) return null;
    const stems = queryStems(query);
    if (stems.length === 0 || scopeKeys.length === 0 || limit < 1) return [];
    this.#catchUp(db);
    const scopes = this.#scopeIdsOf(db, scopeKeys).map((id) => this.#scope(db, id));
    const ids = db
      .all<{ id: number }>(
        'SELECT id FROM memory_terms WHERE term IN (SELECT value FROM json_each(?))',
        [JSON.stringify(stems)],
      )
      .map((r) => r.id);
    // IDF over what the caller may see: another team's private items never shift its scores.
    const n = scopes.reduce((sum, s) => sum + s.live, 0);
    const weighted = ids.flatMap((id) => {
      const df = scopes.reduce((sum, s) => sum + (s.df.get(id) ?? 0), 0);
      return df > 0 ? [{ id, w: idf(n, df) / IMPACT_SCALE }] : [];
    });
    const top = new TopK(limit);
    for (const index of scopes) {
      const acc = new Float64Array(index.items.length);
      const touched: number[] = [];
      for (const { id, w } of weighted) {
        const list = index.lists.get(id);
        if (list === undefined) continue;
        for (let i = 0; i < list.n; i++) {
          const slot = list.slots[i] as number;
          if (acc[slot] === 0) touched.push(slot);
          acc[slot] = (acc[slot] as number) + w * (list.impacts[i] as number);
        }
      }
      for (const slot of touched) {
        if (!index.isDead(slot)) top.offer(index.items[slot] as number, acc[slot] as number);
      }
    }
    return top.hits;
  }
}
