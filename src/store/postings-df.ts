// Global document frequencies for the postings' IDF without rewriting a term row per save:
// each flushed chunk appends one row of (term id, ±count) deltas; once enough pile up, a write
// folds them into memory_terms.df. Readers hold base + deltas in memory (postings-cache.ts).
import type { SyncDb } from './migration-types.js';

/** Delta rows kept before a write folds them into memory_terms (amortises the term pages). */
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
export function recordDeltas(db: SyncDb, seq: number, deltas: ReadonlyMap<number, number>): void {
  const changed = new Map([...deltas].filter(([, d]) => d !== 0));
  if (changed.size === 0) return;
  db.run('INSERT INTO memory_postings_df(seq, deltas) VALUES (?, ?)', [seq, pack(changed)]);
}

/** Folds the delta rows into memory_terms.df once there are FOLD_AT of them. */
export function foldDeltas(db: SyncDb, force = false): void {
  const pending = db.get<{ n: number; last: number | null }>(
    'SELECT COUNT(*) AS n, MAX(seq) AS last FROM memory_postings_df',
  );
  if (pending === undefined || pending.last === null || (!force && pending.n < FOLD_AT)) return;
  const total = new Map<number, number>();
  for (const row of db.all<{ deltas: Uint8Array }>('SELECT deltas FROM memory_postings_df'))
    addDeltas(total, row.deltas);
  for (const [id, d] of total)
    if (d !== 0) db.run('UPDATE memory_terms SET df = df + ? WHERE id = ?', [d, id]);
  db.run('DELETE FROM memory_postings_df');
  db.run('UPDATE memory_postings_stats SET df_seq = ? WHERE id = 1', [pending.last]);
}

/** Every term's document frequency as of the reader's snapshot: folded base + pending deltas. */
export function loadDf(db: SyncDb): Map<number, number> {
  const df = new Map(
    db
      .all<{ id: number; df: number }>('SELECT id, df FROM memory_terms WHERE df <> 0')
      .map((r) => [r.id, r.df]),
  );
  applyDf(db, df, -1);
  return df;
}

/** Adds every delta row recorded after change number `after` into `df`. */
export function applyDf(db: SyncDb, df: Map<number, number>, after: number): void {
  for (const row of db.all<{ deltas: Uint8Array }>(
    'SELECT deltas FROM memory_postings_df WHERE seq > ? ORDER BY seq',
    [after],
  ))
    addDeltas(df, row.deltas);
}
