// Reciprocal-rank fusion of ranked id lists: score = Σ weight / (k + rank).

export interface FusedEntry {
  rowid: number;
  score: number;
  ranks: { fts: number | null; vector: number | null };
}

export interface FusionOptions {
  k?: number;
  ftsWeight?: number;
  vectorWeight?: number;
}

/** Fuses two ranked lists of row ids (best first) into one, best first. */
export function fuseRrf(
  fts: readonly number[],
  vector: readonly number[],
  options: FusionOptions = {},
): FusedEntry[] {
  const k = options.k ?? 60;
  const weights = { fts: options.ftsWeight ?? 1, vector: options.vectorWeight ?? 1 };
  const byRow = new Map<number, FusedEntry>();
  const add = (list: readonly number[], channel: 'fts' | 'vector'): void => {
    list.forEach((rowid, i) => {
      const entry = byRow.get(rowid) ?? { rowid, score: 0, ranks: { fts: null, vector: null } };
      entry.ranks[channel] = i + 1;
      entry.score += weights[channel] / (k + i + 1);
      byRow.set(rowid, entry);
    });
  };
  add(fts, 'fts');
  add(vector, 'vector');
  return [...byRow.values()].sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}
