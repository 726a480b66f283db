// The memory postings' test fixture, for the contract suite that runs on both backends
// (src/store/postings.test.ts) and the SQLite-only one (postings-fts5.test.ts): generated
// facts, the scope filter, an exhaustive BM25 over the stored rows, and a consistency check.
import { expect } from 'vitest';

import { IMPACT_SCALE, queryTerms, unpackTerms } from '../src/search/index.js';
import {
  type Queryable,
  scopeKey,
  type ScopePartition,
  type SqlFilter,
  type Store,
} from '../src/store/index.js';
import { addDeltas } from '../src/store/postings-df.js';

export const WORDS = (
  'deploy rollback canary kafka postgres redis timeout retry lease backlog shard replica ' +
  'latency throughput migration schema index vacuum checkpoint journal payments billing ' +
  'invoice ledger search vector embedding token budget quota alert pager incident'
).split(' ');
export const TEAMS = ['', 'red', 'blue'];

export function sentence(rand: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

let nextId = 0;
/** Inserts one fact through `tx`; its rowid. */
export async function insert(
  tx: Queryable,
  team: string,
  title: string,
  content: string,
): Promise<number> {
  nextId += 1;
  const row = await tx.get<{ id: number }>(
    `INSERT INTO memory_items (id, kind, team_id, title, content, tags, content_hash, created_at, updated_at)
     VALUES (?, 'fact', ?, ?, ?, '[]', ?, 1, 1) RETURNING rowid AS id`,
    [`i${nextId}-${Math.random()}`, team, title, content, `h${nextId}-${Math.random()}`],
  );
  return row?.id ?? 0;
}

export const visible = (team: string): SqlFilter => {
  const partitions: ScopePartition[] = [{ tenant: '', team: '', agent: '' }];
  if (team !== '') partitions.push({ tenant: '', team, agent: '' });
  return {
    sql: `m.deleted_at IS NULL AND m.kind IN ('fact','procedure') AND m.lifecycle = 'active'
      AND m.tenant_id = '' AND m.team_id IN ('', ?) AND m.agent_id = ''`,
    params: [team],
    partitions,
  };
};

/** Top `k` by an exhaustive BM25 over every stored forward-index row of the scopes. */
export async function exhaustive(store: Store, query: string, team: string, k: number) {
  const keys = (visible(team).partitions ?? []).map(scopeKey);
  const docs = await store.all<{ item: number; terms: Uint8Array }>(
    `SELECT d.item_id AS item, d.terms FROM memory_postings_docs d
     JOIN memory_scope_ids s ON s.id = d.scope_id
     WHERE d.terms IS NOT NULL AND s.key IN (${keys.map(() => '?').join(', ')})`,
    keys,
  );
  // IDF over every live item, as FTS5 computes it.
  const all = await store.all<{ terms: Uint8Array }>(
    'SELECT terms FROM memory_postings_docs WHERE terms IS NOT NULL',
  );
  const terms = queryTerms(query);
  const wanted = new Set(
    (
      await store.all<{ id: number }>(
        `SELECT id FROM memory_terms WHERE term IN (${terms.map(() => '?').join(', ')})`,
        terms,
      )
    ).map((t) => t.id),
  );
  const df = new Map<number, number>();
  for (const d of all)
    for (const id of unpackTerms(d.terms).ids)
      if (wanted.has(id)) df.set(id, (df.get(id) ?? 0) + 1);
  const n = all.length;
  const w = new Map(
    [...df].map(([id, f]) => [id, Math.max(1e-6, Math.log((n - f + 0.5) / (f + 0.5)))]),
  );
  const scored = docs.flatMap((d) => {
    const { ids, impacts } = unpackTerms(d.terms);
    let s = 0;
    let hit = false;
    ids.forEach((id, i) => {
      const weight = w.get(id);
      if (weight === undefined) return;
      hit = true;
      s += (weight * (impacts[i] ?? 0)) / IMPACT_SCALE;
    });
    return hit ? [{ rowid: d.item, bm25: s }] : [];
  });
  scored.sort((a, b) => b.bm25 - a.bm25 || a.rowid - b.rowid);
  return scored.slice(0, k);
}

/** The collection statistics equal a recount from the stored rows, one row per live item. */
export async function expectConsistentStats(store: Store): Promise<void> {
  const docs = await store.all<{ length: number; terms: Uint8Array }>(
    'SELECT length, terms FROM memory_postings_docs WHERE terms IS NOT NULL',
  );
  const stats = await store.get<{ docs: number; total: number }>(
    'SELECT docs, total_length AS total FROM memory_postings_stats',
  );
  expect(stats).toEqual({ docs: docs.length, total: docs.reduce((a, d) => a + d.length, 0) });
  // Folded document frequencies plus pending deltas equal a recount.
  const df = new Map<number, number>();
  for (const r of await store.all<{ id: number; df: number }>(
    'SELECT id, df FROM memory_terms WHERE df <> 0',
  ))
    df.set(r.id, r.df);
  for (const r of await store.all<{ deltas: Uint8Array }>('SELECT deltas FROM memory_postings_df'))
    addDeltas(df, r.deltas);
  const recount = new Map<number, number>();
  for (const d of docs)
    for (const id of unpackTerms(d.terms).ids) recount.set(id, (recount.get(id) ?? 0) + 1);
  expect(new Map([...df].filter(([, f]) => f !== 0))).toEqual(recount);
  const live = await store.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM memory_items WHERE scope_key <> ''",
  );
  expect(live?.n).toBe(docs.length);
}

export const ids = (hits: readonly { rowid: number }[]): number[] => hits.map((h) => h.rowid);

/** Items waiting to be indexed. */
export const dirtyCount = async (store: Store): Promise<number | undefined> =>
  (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_postings_dirty'))?.n;

/** Inserts `n` global facts `<word> note <i>` in one statement that bypasses the store's flush. */
export const bypassingBulk = (store: Store, n: number, word: string) =>
  store.run(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO memory_items (id, kind, title, content, tags, content_hash, created_at, updated_at)
     SELECT 'bulk' || i, 'fact', ?, CAST(? AS TEXT) || ' note ' || i, '[]', 'h' || i, 1, 1 FROM n`,
    [n, word, word],
  );
