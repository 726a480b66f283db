// Global document frequencies for the postings' IDF without rewriting a term row per save:
// each flushed chunk appends one row of (term id, ±count) deltas; once enough pile up, a write
// folds them into the corpus's term table (df). Readers hold base + deltas in memory
// (postings-cache.ts). The same code for every corpus (postings-corpus.ts) and dialect.
import type { PostingsCorpus } from './postings-corpus.js';
import type { Queryable } from './types.js';

/** Delta rows kept before a write folds them into the term table (amortises the term pages). */
const FOLD_AT = 256;

/** Packs (term id, delta) pairs as little-endian int32 pairs. */
function pack(deltas: ReadonlyMap<number, number>): Uint8Array {
  const out = new Uint8Array(deltas.size * 8);
  const view = new DataView(out.buffer);
  let i = 0;
  for (const [id, d] of deltas) {
    view.setInt32(i * 8, id, true);
    view.setInt32(i * 8 + 4, d, true);
    i += 1;
  }
  return out;
}

/** Adds the deltas packed in `blob` into `into`. */
export function addDeltas(into: Map<number, number>, blob: Uint8Array): void {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  for (let at = 0; at + 8 <= blob.byteLength; at += 8) {
    const id = view.getInt32(at, true);
    into.set(id, (into.get(id) ?? 0) + view.getInt32(at + 4, true));
  }
}

/** Records one chunk's document-frequency changes under change number `seq`. */
export async function recordDeltas(
  db: Queryable,
  corpus: PostingsCorpus,
  seq: number,
  deltas: ReadonlyMap<number, number>,
): Promise<void> {
  const changed = new Map([...deltas].filter(([, d]) => d !== 0));
  if (changed.size === 0) return;
  await db.run(corpus.sql[db.dialect].insertDeltas, [seq, pack(changed)]);
}

/** Folds the delta rows into the term table's df once there are FOLD_AT of them. */
export async function foldDeltas(
  db: Queryable,
  corpus: PostingsCorpus,
  force = false,
): Promise<void> {
  const sql = corpus.sql[db.dialect];
  const pending = await db.get<{ n: number; last: number | null }>(sql.pendingDeltas);
  if (pending === undefined || pending.last === null || (!force && pending.n < FOLD_AT)) return;
  const total = new Map<number, number>();
  for (const row of await db.all<{ deltas: Uint8Array }>(sql.allDeltas))
    addDeltas(total, row.deltas);
  for (const [id, d] of total) if (d !== 0) await db.run(sql.addDf, [d, id]);
  await db.run(sql.deleteDeltas);
  await db.run(sql.updateDfSeq, [pending.last]);
}

/** Every term's document frequency as of the reader's snapshot: folded base + pending deltas. */
export async function loadDf(db: Queryable, corpus: PostingsCorpus): Promise<Map<number, number>> {
  const rows = await db.all<{ id: number; df: number }>(corpus.sql[db.dialect].liveDf);
  const df = new Map(rows.map((r) => [r.id, r.df]));
  await applyDf(db, corpus, df, -1);
  return df;
}

/** Adds every delta row recorded after change number `after` into `df`. */
export async function applyDf(
  db: Queryable,
  corpus: PostingsCorpus,
  df: Map<number, number>,
  after: number,
): Promise<void> {
  for (const row of await db.all<{ deltas: Uint8Array }>(corpus.sql[db.dialect].deltasAfter, [
    after,
  ]))
    addDeltas(df, row.deltas);
}
