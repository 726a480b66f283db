// Re-derivation of one type of built edges in a vault: the edges a build derives replace the
// built ones of that type (missing inserted, no-longer-derived removed), in transactions of
// EDGE_BATCH edges so a large vault never holds the write lock for long.
import {
  builtEdges,
  deleteVaultEdges,
  type Store,
  upsertVaultEdge,
  type VaultEdgeType,
} from '../store/index.js';

/** Edges written (or removed) per write transaction. */
export const EDGE_BATCH = 500;

const key = (s: number, t: number): string => `${s}>${t}`;

/**
 * Makes the built edges of `type` exactly `want` (source, target, weight): inserts the missing
 * ones and (unless `removeStale` is false) removes those no longer derived. Returns rows newly
 * written and removed.
 */
export async function replaceBuiltEdges(
  store: Store,
  vault: string,
  type: VaultEdgeType,
  want: readonly (readonly [number, number, number])[],
  now: number,
  removeStale = true,
): Promise<{ inserted: number; removed: number }> {
  const wanted = new Set(want.map(([s, t]) => key(s, t)));
  const have = removeStale ? await builtEdges(store, vault, type) : [];
  const stale = have.filter((e) => !wanted.has(key(e.sourceId, e.targetId))).map((e) => e.id);
  let removed = 0;
  for (let i = 0; i < stale.length; i += EDGE_BATCH) {
    const ids = stale.slice(i, i + EDGE_BATCH);
    removed += await store.write((tx) => deleteVaultEdges(tx, ids));
  }
  let inserted = 0;
  for (let i = 0; i < want.length; i += EDGE_BATCH) {
    const batch = want.slice(i, i + EDGE_BATCH);
    inserted += await store.write(async (tx) => {
      let n = 0;
      for (const [sourceId, targetId, weight] of batch) {
        const e = { vault, sourceId, targetId, type, weight, origin: 'built' as const };
        if ((await upsertVaultEdge(tx, e, now)).inserted) n += 1;
      }
      return n;
    });
  }
  return { inserted, removed };
}
