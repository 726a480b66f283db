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
    /** Active documents whose neighbours this call compared. */
    compared: number;
    /** Compared by the earlier calls this one continued (documents up to `resumedAfter`). */
    comparedEarlier: number;
    /** Active documents left out, and why (no embedder, no vector yet, budget). */
    skipped: number;
    skippedReason: string | null;
    /** False when the budget stopped the pass; nothing is removed by a partial pass. */
    complete: boolean;
    /** The document id this call continued after (null: from the first). */
    resumedAfter: number | null;
    /** Where the next call continues when `complete` is false (else null). */
    next: number | null;
  };
}

export interface SemanticOptions {
  /** Continue a pass the budget stopped: only documents with a higher id. */
  after?: number | undefined;
  /** Stops the pass before the next document (default: past SEMANTIC_BUDGET_MS). */
  stop?: ((compared: number) => boolean) | undefined;
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

/** Pairs at or above `threshold` among `ids`' KNN neighbours, until `stop` says so. */
async function semanticPairs(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  model: string,
  ids: readonly number[],
  threshold: number,
  stop: (compared: number) => boolean,
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
    if (stop(compared)) break;
    compared += 1;
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
      // A neighbour whose whole-document vector is not there yet is not judged.
      const w = await vectorOf(other);
      const c = w === null ? null : Math.round(cosine(v, w) * 1e6) / 1e6;
      if (c !== null && c >= threshold) pairs.push([a, b, c]);
    }
  }
  return { pairs, compared };
}

const noVectors = (skipped: number, skippedReason: string): SemanticPass => ({
  inserted: 0,
  removed: 0,
  documents: {
    ...{ compared: 0, comparedEarlier: 0, skipped, skippedReason, complete: true },
    ...{ resumedAfter: null, next: null },
  },
});

/**
 * Re-derives the vault's built semantic edges (documents in id order). Without an embedder, or
 * for documents the embedding backlog has not reached, says how many were skipped and why. A
 * pass the budget stops says where the next call continues (`next`); only a pass that saw every
 * document in one call removes edges it no longer derives.
 */
export async function buildSemantic(
  deps: RetrieveDeps & { store: Store },
  vault: string,
  threshold: number,
  options: SemanticOptions = {},
): Promise<SemanticPass> {
  if (deps.embedder === null) {
    const skipped = (await activeChain(deps.store, vault)).length;
    return noVectors(skipped, 'no embedder is configured (CAIRN_EMBEDDINGS=none)');
  }
  const model = deps.embedder.model;
  const cover = await vectorCoverage(deps.store, vault, model);
  const after = options.after ?? null;
  const todo = cover.withVector.filter((id) => after === null || id > after);
  const deadline = Date.now() + SEMANTIC_BUDGET_MS;
  const stop = options.stop ?? (() => Date.now() > deadline);
  const { pairs, compared } = await semanticPairs(deps, vault, model, todo, threshold, stop);
  const complete = compared === todo.length;
  const whole = complete && after === null;
  const r = await replaceBuiltEdges(deps.store, vault, 'semantic', pairs, deps.now(), whole);
  const left = todo.length - compared;
  const reasons = [
    cover.without.length > 0
      ? `${cover.without.length} without a ${model} vector yet (embedding backlog)`
      : '',
    complete ? '' : `${left} not reached within the budget (call again to continue)`,
  ].filter((x) => x !== '');
  return {
    ...r,
    documents: {
      ...{ compared, comparedEarlier: cover.withVector.length - todo.length },
      skipped: cover.without.length + left,
      skippedReason: reasons.length === 0 ? null : reasons.join('; '),
      ...{
        complete,
        resumedAfter: after,
        next: complete ? null : (todo[compared - 1] ?? after ?? 0),
      },
    },
  };
}
