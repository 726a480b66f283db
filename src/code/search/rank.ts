// Ranks chunks for one search: BM25 over the code corpus, fused with the nearest chunk vectors
// when a query vector is given, the fused top reranked (src/search's rerankFused). Every final score is put on a 0–1 scale for its basis, so
// `min_score` means the same thing whatever answered (types.ts, ScoreBasis).
import {
  CODE_RERANK,
  type FusedEntry,
  fuseHybrid,
  type FusionOptions,
  rerankFused,
  RRF_DEFAULTS,
} from '../../search/index.js';
import type { CodeFilter, Store } from '../../store/index.js';
import { rowsOf } from './hits.js';
import type { ScoreBasis } from './types.js';

export interface RankedChunk {
  chunkId: number;
  score: number;
  ranks: { fts: number | null; vector: number | null };
}

export interface Ranking {
  ranked: RankedChunk[];
  basis: ScoreBasis;
  /** Full-text candidates (chunks holding a query term). */
  textMatches: number;
  /** Whether the vector channel took part. */
  hybrid: boolean;
}

export interface QueryVector {
  model: string;
  vector: Float32Array;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

/** The best fused RRF score there can be: first in both lists. */
function rrfMax(fusion: FusionOptions): number {
  const k = fusion.k ?? RRF_DEFAULTS.k;
  const weights =
    (fusion.ftsWeight ?? RRF_DEFAULTS.fts) + (fusion.vectorWeight ?? RRF_DEFAULTS.vector);
  return weights / (k + 1);
}

/**
 * Z-score fusion's list after the reranker (rerankFused over the chunks' rows): its top in the
 * reranker's order, the rest in fused order. Scores are the logistic of the reranker's score,
 * and below the top of the fused score capped at the last reranked one, so they never rise.
 */
async function reranked(
  store: Store,
  query: string,
  fused: readonly FusedEntry[],
  cosine: ReadonlyMap<number, number>,
): Promise<RankedChunk[]> {
  const rows = await rowsOf(
    store,
    fused.slice(0, CODE_RERANK.depth).map((f) => f.rowid),
  );
  const { top, rest } = rerankFused(
    query,
    fused,
    (id) => rows.get(id),
    (id) => cosine.get(id) ?? null,
  );
  const out = top.map((f) => ({ chunkId: f.rowid, score: logistic(f.score), ranks: f.ranks }));
  let cap = out.at(-1)?.score ?? 1;
  for (const f of rest) {
    cap = Math.min(cap, logistic(f.score));
    out.push({ chunkId: f.rowid, score: cap, ranks: f.ranks });
  }
  return out;
}

/**
 * The `depth` best chunks of each channel that pass `filter`, fused: full text alone without a
 * vector (`fts-bm25`), vectors alone when no chunk holds a query term (`vector-cosine`), else
 * `rrf` (or `fused` for z-score fusion, whose top CODE_RERANK.depth the reranker reorders).
 */
export async function rankChunks(
  store: Store,
  query: string,
  filter: CodeFilter,
  depth: number,
  vector: QueryVector | null,
  fusion: FusionOptions,
): Promise<Ranking> {
  const fts = await store.codeIndex.fullText(query, filter, depth);
  const textMatches = fts.length;
  if (vector === null) {
    const ranked = fts.map((h, i) => ({
      chunkId: h.chunkId,
      score: clamp01(h.score),
      ranks: { fts: i + 1, vector: null },
    }));
    return { ranked, basis: 'fts-bm25', textMatches, hybrid: false };
  }
  const near = await store.codeIndex.nearest(vector.model, vector.vector, filter, depth);
  if (fts.length === 0) {
    const ranked = near.map((h, i) => ({
      chunkId: h.chunkId,
      score: clamp01(1 - h.distance),
      ranks: { fts: null, vector: i + 1 },
    }));
    return { ranked, basis: 'vector-cosine', textMatches, hybrid: true };
  }
  const cosine = new Map(near.map((h) => [h.chunkId, 1 - h.distance]));
  const fused = await fuseHybrid({
    fts: fts.map((h) => ({ id: h.chunkId, bm25: h.bm25 })),
    vector: near.map((h) => ({ id: h.chunkId, distance: h.distance })),
    options: fusion,
    distances: async (ids) =>
      (await store.codeIndex.distances(vector.model, vector.vector, ids)).map((h) => {
        cosine.set(h.chunkId, 1 - h.distance);
        return { id: h.chunkId, distance: h.distance };
      }),
  });
  const zscore = fusion.method === 'zscore';
  const ranked = zscore
    ? await reranked(store, query, fused, cosine)
    : fused.map((f) => ({
        chunkId: f.rowid,
        score: clamp01(f.score / rrfMax(fusion)),
        ranks: f.ranks,
      }));
  return { ranked, basis: zscore ? 'fused' : 'rrf', textMatches, hybrid: true };
}
