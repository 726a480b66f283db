// search (BM25) and vsearch (cosine): the raw regime for ordinary queries (rank by the channel's
// raw score, pin and metadata only among exact ties, minScore on the raw score with no default)
// and the composite regime for recency-intent queries (recency weights; floor 0 for search,
// 0.3 for vsearch unless minScore is given). Every answer says which regime ran and why.
import { DomainError } from '../../shared/errors.js';
import type { VaultFilter, VaultIndex } from '../../store/index.js';
import type { QueryStages } from '../query/index.js';
import {
  compositeOrder,
  isRecencyQuery,
  rawOrder,
  type Scored,
  scoreAll,
  WEIGHT_PROFILES,
} from '../scoring/index.js';
import { candidatesOf, type DocCandidate, leadSnippet, textDocHits } from './candidates.js';
import { hitOf, type ScoreBasis, type VaultHit } from './hits.js';
import { nearestDocs, queryVector, type DegradedReason, type VaultEmbedder } from './vector.js';

/** Composite floor of vsearch's recency branch when minScore is omitted. */
export const VSEARCH_RECENCY_FLOOR = 0.3;

export interface RetrieveDeps {
  readonly index: VaultIndex;
  readonly embedder: VaultEmbedder | null;
  readonly now: () => number;
  /** The configured model stages (CAIRN_VAULT_EXPANSION, CAIRN_VAULT_RERANK); default PRF + features. */
  readonly stages?: QueryStages | undefined;
}

export interface RawSearchArgs {
  query: string;
  limit: number;
  minScore?: number | undefined;
  compact: boolean;
  filter: VaultFilter;
}

export type SearchStatus = 'found' | 'no-match' | 'empty' | 'below-min-score';

export interface SearchAnswer {
  query: string;
  regime: 'raw' | 'composite';
  recencyIntent: boolean;
  scoreBasis: ScoreBasis;
  minScore: number | null;
  status: SearchStatus;
  message: string;
  results: VaultHit[];
  /** Fragments not yet in the full-text index (a sync still being posted). */
  pendingPostings: number;
  degraded?: boolean;
  degradedReason?: DegradedReason;
}

/** No embedder is configured, so a vector route cannot run. */
export class VaultVectorsUnavailableError extends DomainError {
  constructor(tool: string) {
    super(
      'vectors_unavailable',
      `${tool} needs an embedder, and none is configured (CAIRN_EMBEDDINGS=none): use search or query`,
    );
  }
}

/** Candidates kept before ordering (raw ties need the whole tie group). */
const depthFor = (limit: number): number => Math.max(limit * 3, 50);

async function statusOf(
  deps: RetrieveDeps,
  filter: VaultFilter,
  matched: number,
  kept: number,
): Promise<{ status: SearchStatus; message: string }> {
  if (kept > 0) return { status: 'found', message: `${kept} result(s)` };
  if (matched > 0) {
    return { status: 'below-min-score', message: `${matched} matched, all below minScore` };
  }
  const docs = await deps.index.listDocuments(filter.vault, {
    ...(filter.collections === undefined ? {} : { collections: filter.collections }),
  });
  return docs.length === 0
    ? { status: 'empty', message: `vault ${filter.vault} has no live documents to search here` }
    : { status: 'no-match', message: `nothing matched in ${docs.length} document(s)` };
}

/** Orders and cuts candidates in the regime the query asks for. */
function rank(
  candidates: readonly DocCandidate[],
  args: RawSearchArgs,
  rawBasis: ScoreBasis,
  recencyFloor: number,
  now: number,
) {
  const recency = isRecencyQuery(args.query);
  const scored = scoreAll(
    candidates,
    recency ? WEIGHT_PROFILES.recency : WEIGHT_PROFILES.default,
    now,
  );
  const ranking = (s: Scored<DocCandidate>): number =>
    recency ? s.composite.compositeScore : s.raw;
  const floor = args.minScore ?? (recency ? recencyFloor : null);
  const ordered = scored.sort(recency ? compositeOrder : rawOrder);
  const kept = ordered.filter((s) => floor === null || ranking(s) >= floor).slice(0, args.limit);
  const basis: ScoreBasis = recency ? 'composite' : rawBasis;
  const results = kept.map((s) =>
    hitOf(s.doc, { ranking: ranking(s), raw: s.raw, basis }, args.compact),
  );
  return { recency, basis, floor, results };
}

/** search: BM25 over fragments, best fragment per document. */
export async function searchVault(deps: RetrieveDeps, args: RawSearchArgs): Promise<SearchAnswer> {
  const perDoc = await textDocHits(deps.index, args.query, args.filter, depthFor(args.limit));
  const candidates = await candidatesOf(deps.index, args.filter.vault, perDoc);
  return answerOf(deps, args, candidates, rank(candidates, args, 'fts-bm25', 0, deps.now()));
}

/** vsearch: cosine over fragment vectors, best fragment per document. */
export async function vsearchVault(deps: RetrieveDeps, args: RawSearchArgs): Promise<SearchAnswer> {
  if (deps.embedder === null) throw new VaultVectorsUnavailableError('vsearch');
  const vector = await queryVector(deps.embedder, args.query);
  const limit = depthFor(args.limit);
  const near = await nearestDocs(deps.index, deps.embedder.model, vector, args.filter, limit);
  const docs = await candidatesOf(deps.index, args.filter.vault, [...near.hits]);
  const candidates = await withLeadSnippets(deps.index, docs);
  const r = rank(candidates, args, 'vector-cosine', VSEARCH_RECENCY_FLOOR, deps.now());
  const answer = await answerOf(deps, args, candidates, r);
  return near.degradedReason === null
    ? answer
    : { ...answer, degraded: true, degradedReason: near.degradedReason };
}

/** The answer both routes give: the regime that ran, the honest status, the hits. */
async function answerOf(
  deps: RetrieveDeps,
  args: RawSearchArgs,
  candidates: readonly DocCandidate[],
  r: ReturnType<typeof rank>,
): Promise<SearchAnswer> {
  return {
    query: args.query,
    regime: r.recency ? 'composite' : 'raw',
    recencyIntent: r.recency,
    scoreBasis: r.basis,
    minScore: r.floor,
    ...(await statusOf(deps, args.filter, candidates.length, r.results.length)),
    results: r.results,
    pendingPostings: await deps.index.pendingPostings(),
  };
}

/** Vector hits carry no snippet: the matching fragment's opening words stand in. */
export async function withLeadSnippets(
  index: VaultIndex,
  candidates: readonly DocCandidate[],
): Promise<DocCandidate[]> {
  return Promise.all(
    candidates.map(async (c) => {
      const fragment = (await index.fragmentsOf(c.row.id)).find((f) => f.id === c.fragmentId);
      return { ...c, snippet: fragment === undefined ? '' : leadSnippet(fragment) };
    }),
  );
}
