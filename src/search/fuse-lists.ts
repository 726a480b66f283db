// Weighted reciprocal-rank fusion of any number of ranked lists (the vault's query pipeline:
// the original query's BM25 and vector lists weighted above each expansion's). Pure; the
// two-channel fuseRrf in fusion.ts is the special case memory and code use.

/** One ranked list of ids (best first) and its weight in the fusion. */
export interface RankedList {
  readonly name: string;
  readonly weight: number;
  readonly ids: readonly number[];
}

/** A fused id: its score and its 1-based rank in each list that held it. */
export interface FusedId {
  readonly id: number;
  readonly score: number;
  readonly ranks: Readonly<Record<string, number>>;
}

/**
 * Σ over lists of weight / (k + rank), best first; ties by id ascending, so the order is
 * deterministic. A list with weight 0 records its ranks but adds nothing.
 */
export function fuseLists(lists: readonly RankedList[], k = 60): FusedId[] {
  const byId = new Map<number, { id: number; score: number; ranks: Record<string, number> }>();
  for (const list of lists) {
    list.ids.forEach((id, i) => {
      const entry = byId.get(id) ?? { id, score: 0, ranks: {} };
      if (entry.ranks[list.name] === undefined) {
        entry.ranks[list.name] = i + 1;
        entry.score += list.weight / (k + i + 1);
      }
      byId.set(id, entry);
    });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}
