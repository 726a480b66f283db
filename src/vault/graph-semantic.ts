// The semantic half of build_graphs: for each active document with a stored whole-document
// vector, a bounded KNN over the vault's fragment vectors proposes neighbour documents; a pair
// becomes an edge when the cosine of the two whole-document vectors reaches the threshold. One
// edge per unordered pair, from the lower document id to the higher, weight = cosine.
import { activeChain, type Store, vectorCoverage } from '../store/index.js';
import { replaceBuiltEdges } from './graph-edges.js';
import type { RetrieveDeps } from './retrieve/search.js';

/** Neighbour documents examined per document, and fragments asked of the KNN to find them. */
export const SEMANTIC_K = 10;
const FRAGMENT_K = 48;
/** Wall-clock budget of one semantic pass; past it the pass stops and says so. */
export const SEMANTIC_BUDGET_MS = 120_000;

export interface SemanticPass {
  inserted: number;
  removed: number;
  documents: {
    /** Active documents whose neighbours were compared. */
    compared: number;
    /** Active documents left out, and why (no embedder, no vector yet, budget). */
    skipped: number;
    skippedReason: string | null;
    /** False when the time budget stopped the pass (nothing was removed then). */
    complete: boolean;
  };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Pairs at or above `threshold` among `ids`' KNN neighbours; stops past `deadline`. */
async function semanticPairs(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  model: string,
  ids: readonly number[],
  threshold: number,
  deadline: number,
): Promise<{ pairs: [number, number, number][]; compared: number }> {
  const cache = new Map<number, Float32Array | null>();
  const vectorOf = async (id: number): Promise<Float32Array | null> => {
    if (!cache.has(id)) cache.set(id, await deps.index.documentVector(model, id));
    return cache.get(id) ?? null;
  };
  const filter = { vault, now: deps.now(), includeInternal: true, includeSnoozed: true };
  const seen = new Set<string>();
  const pairs: [number, number, number][] = [];
  let compared = 0;
  for (const id of ids) {
    if (Date.now() > deadline) break;
    const v = await vectorOf(id);
    if (v === null) continue;
    const scan = await deps.index.nearestScan(
      model,
      v,
      { ...filter, includeArchived: true },
      FRAGMENT_K,
    );
    const near = [...new Set(scan.hits.map((h) => h.documentId))].filter((d) => d !== id);
    for (const other of near.slice(0, SEMANTIC_K)) {
      const [a, b] = id < other ? [id, other] : [other, id];
      if (seen.has(`${a}>${b}`)) continue;
      seen.add(`${a}>${b}`);
      const w = await vectorOf(other);
      const c = w === null ? 0 : Math.round(cosine(v, w) * 1e6) / 1e6;
      if (c >= threshold) pairs.push([a, b, c]);
    }
    compared += 1;
  }
  return { pairs, compared };
}

/**
 * Re-derives the vault's built semantic edges. Without an embedder, or for documents the
 * embedding backlog has not reached, says how many documents were skipped and why.
 */
export async function buildSemantic(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  threshold: number,
  budgetMs = SEMANTIC_BUDGET_MS,
): Promise<SemanticPass> {
  if (deps.embedder === null) {
    const skipped = (await activeChain(deps.store, vault)).length;
    const skippedReason = 'no embedder is configured (CAIRN_EMBEDDINGS=none)';
    return {
      inserted: 0,
      removed: 0,
      documents: { compared: 0, skipped, skippedReason, complete: true },
    };
  }
  const model = deps.embedder.model;
  const cover = await vectorCoverage(deps.store, vault, model);
  const deadline = Date.now() + budgetMs;
  const { pairs, compared } = await semanticPairs(
    deps,
    vault,
    model,
    cover.withVector,
    threshold,
    deadline,
  );
  const complete = compared === cover.withVector.length;
  const r = await replaceBuiltEdges(deps.store, vault, 'semantic', pairs, deps.now(), complete);
  const reasons = [
    cover.without.length > 0
      ? `${cover.without.length} without a ${model} vector yet (embedding backlog)`
      : '',
    complete
      ? ''
      : `${cover.withVector.length - compared} not reached within the ${budgetMs} ms budget`,
  ].filter((s) => s !== '');
  return {
    ...r,
    documents: {
      compared,
      skipped: cover.without.length + cover.withVector.length - compared,
      skippedReason: reasons.length === 0 ? null : reasons.join('; '),
      complete,
    },
  };
}
