// search_memory: observations and memory facts (and procedures) in one search through memory's
// engine (BM25 full text, fused with vectors when an embedder is configured), narrowed by tags
// and session, with scores on 0–1 so `min_score` means the same whatever answered. Empty answers
// say why (nothing stored, filters, no match, everything below min_score).
import { type Memory, type Scope, type SearchHit, visibleTo } from '../../memory/index.js';
import { RRF_DEFAULTS } from '../../search/index.js';
import {
  bothFilters,
  countMemoryItems,
  type Dialect,
  eitherFilter,
  observationFilter,
  observationsByIds,
  type SqlFilter,
  type Store,
  tagsFilter,
} from '../../store/index.js';
import type { ObservationType } from './model.js';
import { toObservation } from './rows.js';

export interface MemorySearchInput {
  query: string;
  tags?: readonly string[] | undefined;
  /** Only observations of this session (facts belong to no session, so they drop out). */
  sessionId?: string | undefined;
  minScore?: number | undefined;
  limit?: number | undefined;
  /** Whose facts are visible (observations are shared by everyone using the server). */
  scope: Scope;
}

export type MemorySearchStatus = 'ok' | 'empty' | 'filtered_out' | 'no_match' | 'below_min_score';

export interface MemorySearchHit {
  id: string;
  kind: SearchHit['kind'];
  /** The observation type, for observations; null for facts and procedures. */
  type: ObservationType | null;
  title: string;
  snippet: string;
  /** 0–1 on `scoreBasis` (RRF scores are divided by the best an item can reach). */
  score: number;
  scoreBasis: SearchHit['scoreBasis'];
  tags: string[];
  sessionId: string | null;
  createdAt: string;
}

export interface MemorySearchResult {
  status: MemorySearchStatus;
  message: string;
  results: MemorySearchHit[];
  /** True when vectors were wanted but full text answered (with why). */
  degraded: boolean;
  degradedReason: string | null;
  /** Hits scoring below min_score, left out. */
  belowMinScore: number;
}

export const SEARCH_LIMIT = { default: 10, max: 100 } as const;
const RRF_BEST = (RRF_DEFAULTS.fts + RRF_DEFAULTS.vector) / (RRF_DEFAULTS.k + 1);

export interface SearchDeps {
  store: Store;
  search: Memory['search'];
  vectors: boolean;
}

/** The items search_memory may return for `input`: observations, and facts unless a session is named. */
function searchable(
  dialect: Dialect,
  input: MemorySearchInput,
): { filter: SqlFilter; everything: SqlFilter } {
  const tags = input.tags;
  const observations = observationFilter(dialect, { tags, sessionId: input.sessionId });
  const facts = bothFilters(visibleTo(input.scope), tagsFilter(dialect, tags ?? []));
  const everything = eitherFilter(visibleTo(input.scope), observationFilter(dialect));
  return {
    filter: input.sessionId === undefined ? eitherFilter(facts, observations) : observations,
    everything,
  };
}

const unit = (h: SearchHit): number =>
  h.scoreBasis === 'rrf' ? Math.min(1, h.score / RRF_BEST) : Math.max(0, Math.min(1, h.score));

/** Builds search_memory's search. */
export function createMemorySearch(deps: SearchDeps) {
  return async function searchMemory(input: MemorySearchInput): Promise<MemorySearchResult> {
    const { filter, everything } = searchable(deps.store.dialect, input);
    const limit = input.limit ?? SEARCH_LIMIT.default;
    const found = await deps.search({
      query: input.query,
      mode: deps.vectors ? 'hybrid' : 'fts',
      limit,
      scope: input.scope,
      filter,
    });
    const observed = new Map(
      (
        await observationsByIds(
          deps.store,
          found.results.map((h) => h.id),
        )
      ).map((r) => [r.id, toObservation(r)]),
    );
    const all = found.results.map((h): MemorySearchHit => {
      const o = observed.get(h.id);
      return {
        id: h.id,
        kind: h.kind,
        type: o?.type ?? null,
        title: h.title,
        snippet: h.snippet,
        score: Math.round(unit(h) * 1000) / 1000,
        scoreBasis: h.scoreBasis,
        tags: h.tags,
        sessionId: o?.sessionId ?? null,
        createdAt: h.createdAt,
      };
    });
    const min = input.minScore ?? 0;
    const results = all.filter((h) => h.score >= min);
    const base = {
      results,
      degraded: found.degraded === true,
      degradedReason: found.degradedReason ?? null,
      belowMinScore: all.length - results.length,
    };
    if (results.length > 0) {
      const below =
        base.belowMinScore > 0 ? `; ${base.belowMinScore} below min_score ${min} left out` : '';
      return { ...base, status: 'ok', message: `${results.length} found${below}.` };
    }
    if (all.length > 0) {
      const best = all[0]?.score ?? 0;
      return {
        ...base,
        status: 'below_min_score',
        message: `All ${all.length} hits scored below min_score ${min} (best ${best} on the ${all[0]?.scoreBasis} scale): lower min_score or rephrase.`,
      };
    }
    const [stored, matching] = await Promise.all([
      countMemoryItems(deps.store, everything),
      countMemoryItems(deps.store, filter),
    ]);
    if (stored === 0)
      return { ...base, status: 'empty', message: 'Memory holds no fact or observation yet.' };
    if (matching === 0) {
      return {
        ...base,
        status: 'filtered_out',
        message: `The tags and session_id admit none of the ${stored} memory items: widen them.`,
      };
    }
    return {
      ...base,
      status: 'no_match',
      message: `The query matched none of the ${matching} memory items the filters admit.`,
    };
  };
}
