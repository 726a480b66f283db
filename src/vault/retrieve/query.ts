// The query tool: the full pipeline (BM25 → strong-signal bypass → expansion → BM25 and vector
// legs → weighted RRF → rerank of candidateLimit) over documents of one vault, then the
// composite regime (the `query` weights, or the default ones for memory_retrieve's routes)
// with the rerank score as relevance. Reports the stages that ran and degraded vector legs.
import type { VaultFilter } from '../../store/index.js';
import {
  createFeatureReranker,
  createPrfExpander,
  type QueryChannels,
  type QueryOutcome,
  type QueryStages,
  runQuery,
  type StageReport,
} from '../query/index.js';
import {
  compositeOrder,
  isRecencyQuery,
  scoreAll,
  WEIGHT_PROFILES,
  type WeightProfile,
} from '../scoring/index.js';
import { candidatesOf, type DocCandidate, textDocHits } from './candidates.js';
import { hitOf, type VaultHit } from './hits.js';
import type { RetrieveDeps } from './search.js';
import { nearestDocs, queryVector } from './vector.js';

export type { QueryStages };

/** The deterministic defaults: PRF expansion and the feature reranker. */
export const DEFAULT_QUERY_STAGES: QueryStages = {
  expander: createPrfExpander(),
  reranker: createFeatureReranker(),
};

export interface QueryArgs {
  query: string;
  limit: number;
  compact: boolean;
  intent?: string | undefined;
  candidateLimit: number;
  filter: VaultFilter;
  /** `query` for the query tool; `default` for memory_retrieve's routes. */
  profile: WeightProfile;
}

export interface QueryAnswer {
  query: string;
  regime: 'composite';
  scoreBasis: 'composite';
  weights: WeightProfile;
  results: VaultHit[];
  stages: StageReport & { bypassed: boolean; expansionTerms: readonly string[] };
  degraded: boolean;
  degradedLegs: { leg: string; reason: string }[];
  status: 'found' | 'no-match';
  message: string;
}

interface Evidence {
  fragmentId: number;
  score: number;
  snippet: string;
}

/** Document-level channels over the vault's fragments; remembers each document's best fragment. */
function channelsFor(
  deps: RetrieveDeps,
  filter: VaultFilter,
  evidence: Map<number, Evidence>,
): QueryChannels {
  const keep = (documentId: number, e: Evidence): void => {
    const seen = evidence.get(documentId);
    if (seen === undefined || e.score > seen.score) evidence.set(documentId, e);
  };
  const embedder = deps.embedder;
  return {
    text: async (q, limit) => {
      const docs = await textDocHits(deps.index, q, filter, limit);
      for (const d of docs) keep(d.documentId, d);
      return docs.map((d) => ({ id: d.documentId, score: d.score }));
    },
    vector:
      embedder === null
        ? null
        : async (q, limit) => {
            const v = await queryVector(embedder, q);
            const near = await nearestDocs(deps.index, embedder.model, v, filter, limit);
            for (const h of near.hits)
              if (!evidence.has(h.documentId)) keep(h.documentId, { ...h, score: 0 });
            return {
              hits: near.hits.map((h) => ({ id: h.documentId, cosine: h.score })),
              degradedReason: near.degradedReason,
            };
          },
    texts: async (ids) => {
      const out = new Map<number, { title: string; text: string }>();
      const rows = await deps.index.documentsById(filter.vault, ids);
      for (const row of rows) {
        const e = evidence.get(row.id);
        const fragment =
          e === undefined
            ? undefined
            : (await deps.index.fragmentsOf(row.id)).find((f) => f.id === e.fragmentId);
        out.set(row.id, { title: row.title, text: fragment?.text ?? row.content.slice(0, 2000) });
      }
      return out;
    },
    termStats: (terms) => deps.index.termStats(terms),
  };
}

/** Runs the pipeline; the outcome and each hit's document candidate (relevance = rerank score). */
export async function pipelineCandidates(
  deps: RetrieveDeps,
  stages: QueryStages,
  args: Pick<QueryArgs, 'query' | 'intent' | 'candidateLimit' | 'filter'>,
): Promise<{ outcome: QueryOutcome; candidates: DocCandidate[] }> {
  const evidence = new Map<number, Evidence>();
  const outcome = await runQuery(channelsFor(deps, args.filter, evidence), stages, args);
  const hits = outcome.hits.map((h) => ({
    fragmentId: evidence.get(h.id)?.fragmentId ?? 0,
    documentId: h.id,
    score: Math.min(1, Math.max(0, h.score)),
    snippet: evidence.get(h.id)?.snippet ?? '',
  }));
  return { outcome, candidates: await candidatesOf(deps.index, args.filter.vault, hits) };
}

/** query: the pipeline, then the composite regime. */
export async function queryVault(
  deps: RetrieveDeps,
  args: QueryArgs,
  stages: QueryStages = deps.stages ?? DEFAULT_QUERY_STAGES,
): Promise<QueryAnswer> {
  const { outcome, candidates } = await pipelineCandidates(deps, stages, args);
  const profile: WeightProfile = isRecencyQuery(args.query) ? 'recency' : args.profile;
  const scored = scoreAll(candidates, WEIGHT_PROFILES[profile], deps.now()).sort(compositeOrder);
  const results = scored
    .slice(0, args.limit)
    .map((s) =>
      hitOf(
        s.doc,
        { ranking: s.composite.compositeScore, raw: s.raw, basis: 'composite' },
        args.compact,
      ),
    );
  return {
    query: args.query,
    regime: 'composite',
    scoreBasis: 'composite',
    weights: profile,
    results,
    stages: {
      ...outcome.stages,
      bypassed: outcome.bypassed,
      expansionTerms: outcome.expansion?.terms ?? [],
    },
    degraded: outcome.degradedLegs.length > 0,
    degradedLegs: [...outcome.degradedLegs],
    status: results.length > 0 ? 'found' : 'no-match',
    message: results.length > 0 ? `${results.length} result(s)` : 'nothing matched',
  };
}
