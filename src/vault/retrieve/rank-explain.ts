// memory_rank: the production FTS + composite pipeline for a query, explained. FTS candidates
// only (no vector or model stage); the union of the composite top-limit and the raw top-limit,
// each with its ranks in both orderings and the breakdown the scorer captured while scoring.
import type { VaultFilter } from '../../store/index.js';
import {
  type Breakdown,
  explainRanking,
  isRecencyQuery,
  scoreAll,
  WEIGHT_PROFILES,
  type WeightProfile,
} from '../scoring/index.js';
import { candidatesOf, textDocHits } from './candidates.js';
import type { RetrieveDeps } from './search.js';

export interface RankArgs {
  query: string;
  limit: number;
  weightProfile: 'default' | 'query';
  filter: VaultFilter;
}

export interface RankItem {
  docid: string;
  path: string;
  title: string;
  collection: string;
  /** The raw BM25 transform. */
  searchScore: number;
  compositeScore: number;
  compositeRank: number;
  rawRank: number;
  rankShift: number;
  demotedRawWinner: boolean;
  breakdown: Breakdown;
}

export interface RankAnswer {
  query: string;
  /** The weights applied: recency for recency-intent queries, else the profile asked for. */
  weights: WeightProfile;
  recencyIntent: boolean;
  limit: number;
  candidates: number;
  items: RankItem[];
}

/** Candidates ranked at most: enough for both top-k lists and their true ranks. */
const POOL = 200;

export async function explainVaultRanking(deps: RetrieveDeps, args: RankArgs): Promise<RankAnswer> {
  const recency = isRecencyQuery(args.query);
  const weights: WeightProfile = recency ? 'recency' : args.weightProfile;
  const hits = await textDocHits(deps.index, args.query, args.filter, POOL);
  const candidates = await candidatesOf(deps.index, args.filter.vault, hits);
  const scored = scoreAll(candidates, WEIGHT_PROFILES[weights], deps.now());
  const items = explainRanking(scored, args.limit).map((e) => ({
    docid: `#${e.scored.doc.row.docid}`,
    path: e.scored.doc.row.path,
    title: e.scored.doc.row.title,
    collection: e.scored.doc.row.collection,
    searchScore: e.scored.raw,
    compositeScore: e.scored.composite.compositeScore,
    compositeRank: e.compositeRank,
    rawRank: e.rawRank,
    rankShift: e.rankShift,
    demotedRawWinner: e.demotedRawWinner,
    breakdown: e.scored.composite,
  }));
  return {
    query: args.query,
    weights,
    recencyIntent: recency,
    limit: args.limit,
    candidates: candidates.length,
    items,
  };
}
