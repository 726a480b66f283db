// The vault eval's attempts ladder: the query pipeline's defaults (fusion k and vector weight,
// PRF weight and terms, the reranker's feature weights) searched stage by stage on the tuning
// half of the conversations, each stage's best kept only when it beats the current point there
// by MIN_GAIN; every row also reported on the held-out half and on all questions. Runs the real
// queryVault over the stored vault, with the store's answers and the rerank features memoised
// so a grid point costs the fusion and scoring only (the ranking is unchanged by the caching).
import type { Core } from '../../../src/core/index.js';
import { queryTerms } from '../../../src/search/index.js';
import type { VaultDocumentRow, VaultIndex } from '../../../src/store/index.js';
import { queryVault, type RetrieveDeps } from '../../../src/vault/index.js';
import {
  createPrfExpander,
  type Feature,
  FEATURE_WEIGHTS,
  featuresOf,
  type PrfOptions,
  QUERY_FUSION,
  type QueryFusion,
  type Reranker,
} from '../../../src/vault/query/index.js';
import type { VaultCase } from './data.js';
import { LIMIT, runMode } from './modes.js';
import type { ModeMetrics } from './score.js';

/** A tuning-half MRR gain below this keeps the current setting (noise of ~750 questions). */
export const MIN_GAIN = 0.005;

export interface TunePoint {
  fusion: QueryFusion;
  prf: Required<PrfOptions>;
  weights: Record<Feature, number>;
}

/** The defaults before this eval tuned them (the pipeline as first written). */
export const BEFORE: TunePoint = {
  fusion: { k: 60, vectorWeight: 0.25 },
  prf: { depth: 5, terms: 4, weight: 0.5 },
  weights: {
    coverage: 0.3,
    titleCoverage: 0.15,
    phrase: 0.1,
    proximity: 0.1,
    bm25: 0.15,
    cosine: 0.05,
    fused: 0.15,
    intent: 0.1,
  },
};

/** What the product ships now (src/vault/query). */
export const PRODUCT: TunePoint = {
  fusion: QUERY_FUSION,
  prf: { depth: 5, terms: 4, weight: 0.5 },
  weights: { ...FEATURE_WEIGHTS },
};

export interface Attempt {
  stage: 'before' | 'fusion' | 'expansion' | 'rerank' | 'product';
  change: string;
  point: TunePoint;
  tune: ModeMetrics;
  test: ModeMetrics;
  all: ModeMetrics;
  grid?: number;
}

/** Wraps every async method of `target` so equal arguments answer from a cache. */
function memoised<T extends object>(target: T): T {
  const cache = new Map<string, unknown>();
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value: unknown = Reflect.get(t, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const key = `${String(prop)}:${JSON.stringify(args, (_, v: unknown) => (v instanceof Float32Array ? Array.from(v) : v))}`;
        if (!cache.has(key)) cache.set(key, (value as (...a: unknown[]) => unknown).apply(t, args));
        return cache.get(key);
      };
    },
  });
}

/** The vault index with its answers memoised; document rows once per id (they hold content). */
function memoisedIndex(index: VaultIndex): VaultIndex {
  const rows = new Map<number, VaultDocumentRow>();
  const generic = memoised(index);
  return new Proxy(generic, {
    get(t, prop, receiver) {
      if (prop !== 'documentsById') return Reflect.get(t, prop, receiver) as unknown;
      const byId: VaultIndex['documentsById'] = async (vault, ids) => {
        const missing = ids.filter((id) => !rows.has(id));
        if (missing.length > 0)
          for (const row of await index.documentsById(vault, missing)) rows.set(row.id, row);
        return ids.flatMap((id) => {
          const row = rows.get(id);
          return row === undefined ? [] : [row];
        });
      };
      return byId;
    },
  });
}

type Features = Record<Feature, number>;

/** The feature reranker with `weights`, its text features memoised per query and candidate. */
function rerankerWith(weights: Features, cache: Map<string, Features>): Reranker {
  return {
    name: 'features',
    rerank: (input) => {
      const q = queryTerms(input.query);
      const results = input.candidates.map((c) => {
        const key = `${input.query}\u0000${c.id}`;
        let f = cache.get(key);
        if (f === undefined) {
          f = featuresOf(q, [], c);
          cache.set(key, f);
        }
        const live: Features = {
          ...f,
          bm25: c.bm25,
          cosine: Math.max(0, c.cosine ?? 0),
          fused: 1 / c.fusedRank,
        };
        let score = 0;
        for (const k of Object.keys(weights) as Feature[]) score += weights[k] * live[k];
        return { id: c.id, score, features: live };
      });
      return Promise.resolve({ results, stage: 'features' });
    },
  };
}

export interface Tuner {
  /** The point on every question (tuning half, held-out half, all). */
  measure(stage: Attempt['stage'], change: string, point: TunePoint): Promise<Attempt>;
  /** The point's MRR on the tuning half only (a grid's search). */
  tuneMrr(point: TunePoint): Promise<number>;
}

export function createTuner(core: Core, cases: readonly VaultCase[], tuneCases: number): Tuner {
  const base = core.vault.deps;
  const deps: RetrieveDeps = {
    index: memoisedIndex(base.index),
    embedder: base.embedder === null ? null : memoised(base.embedder),
    now: base.now,
  };
  const filters = new Map<string, Awaited<ReturnType<Core['vault']['filter']>>>();
  const features = new Map<string, Features>();
  const run = (point: TunePoint, over: readonly VaultCase[]) => {
    const stages = {
      expander: createPrfExpander(point.prf),
      reranker: rerankerWith(point.weights, features),
      fusion: point.fusion,
    };
    return runMode('attempt', 'ablation', over, tuneCases, async (c, q) => {
      let filter = filters.get(c.vault);
      if (filter === undefined) {
        filter = await core.vault.filter(c.vault, {});
        filters.set(c.vault, filter);
      }
      const answer = await queryVault(
        deps,
        {
          query: q.question,
          limit: LIMIT,
          compact: true,
          candidateLimit: 30,
          filter,
          profile: 'query',
        },
        stages,
      );
      return { paths: answer.results.map((h) => h.path) };
    });
  };
  return {
    async tuneMrr(point) {
      return (await run(point, cases.slice(0, tuneCases))).split.tune.mrr;
    },
    async measure(stage, change, point) {
      const r = await run(point, cases);
      const all = r.metrics['all'];
      if (all === undefined) throw new Error('no questions');
      return { stage, change, point, tune: r.split.tune, test: r.split.test, all };
    },
  };
}
