// createCodeSearch: search_code over the code index. Checks the arguments, reads the state of
// the collections searched, ranks (BM25 fused with chunk vectors when they can take part),
// builds an honest, bounded answer and records who asked (code_searches + code_provenance).
import type { Provenance } from '../../activity/index.js';
import { CODE_FUSION, fusionDepth, type FusionOptions } from '../../search/index.js';
import { type CodeFilter, isBusyError, StoreBusyError, type Store } from '../../store/index.js';
import { recordProvenance } from '../indexer/index.js';
import {
  buildingText,
  emptyIndexText,
  fitAnswer,
  outcomeText,
  scopeLabel,
  staleText,
} from './answer.js';
import { chunkVectorModel, DEFAULT_CODE_EMBED_TEXT } from './embed-text.js';
import { narrowsSearch } from './filters.js';
import { cachedFreshness, statFreshness } from './freshness.js';
import { loadHits } from './hits.js';
import { type IndexStates, indexStates, selectCollections } from './index-state.js';
import { type CheckedInput, checkInput } from './input.js';
import { type QueryVector, rankChunks, type Ranking } from './rank.js';
import {
  CODE_SEARCH_DEFAULTS,
  type CodeSearchInput,
  type CodeSearchOptions,
  type CodeSearchResult,
  type CodeSearchStatus,
} from './types.js';
import { queryVector } from './vectors.js';

export interface CodeSearch {
  /**
   * Runs one search for `provenance` and records it. Never throws for a search that finds
   * nothing: the answer's `status` and `message` say why.
   * @throws InvalidInputError naming the field (`query`, `collection`, `extensions`,
   * `filters`, `limit`, `min_score`) for bad arguments, before anything is read.
   */
  search(input: CodeSearchInput, provenance: Provenance): Promise<CodeSearchResult>;
}

interface Context {
  input: CheckedInput;
  scope: string;
  index: IndexStates;
  listedOmitted: number;
}

/** The answer before hits: everything but results and truncation. */
function baseResult(c: Context, status: CodeSearchStatus, message: string): CodeSearchResult {
  return {
    status,
    message,
    query: c.input.query,
    mode: 'fts',
    scoreBasis: 'fts-bm25',
    degraded: false,
    degradedReason: null,
    results: [],
    candidates: 0,
    textMatches: 0,
    minScore: c.input.minScore,
    droppedBelowMinScore: 0,
    bestScore: null,
    building: c.index.building,
    index: c.index.states,
    indexOmitted: c.listedOmitted,
    truncated: false,
    omitted: 0,
    hint: null,
    searchId: null,
  };
}

const sentences = (...parts: (string | null)[]): string =>
  parts.filter((p): p is string => p !== null && p !== '').join(' ');

function statusOf(ranking: Ranking, kept: number, filteredOut: boolean): CodeSearchStatus {
  if (kept > 0) return 'ok';
  if (ranking.ranked.length > 0) return 'below_min_score';
  return filteredOut ? 'filtered_out' : 'no_match';
}

/** Builds code search over a store (see CodeSearchOptions for embedder, fusion, freshness). */
export function createCodeSearch(store: Store, options: CodeSearchOptions): CodeSearch {
  const clock = options.clock ?? Date.now;
  const fusion: FusionOptions = { ...CODE_FUSION, ...options.fusion };
  const embedText = options.embedText ?? DEFAULT_CODE_EMBED_TEXT;
  /** The key this search's chunk vectors are stored under (model and embedding text). */
  const vectorModel =
    options.embedder === null ? null : chunkVectorModel(options.embedder.model, embedText);
  const maxBytes = options.maxBytes ?? CODE_SEARCH_DEFAULTS.maxBytes;
  const freshness = cachedFreshness(
    options.freshness ?? ((name) => statFreshness(store, name)),
    options.freshnessTtlMs ?? CODE_SEARCH_DEFAULTS.freshnessTtlMs,
    clock,
  );

  /** Writes the code_searches row; null when the store stayed busy (the answer says so). */
  async function record(
    c: Context,
    collectionId: number | null,
    results: number,
    provenance: Provenance,
  ): Promise<number | null> {
    const now = clock();
    try {
      return await store.write(async (tx) => {
        const provenanceId = await recordProvenance(tx, provenance, now);
        const row = await tx.get<{ id: number }>(
          `INSERT INTO code_searches(collection_id, query, results, provenance_id, created_at)
           VALUES (?, ?, ?, ?, ?) RETURNING id`,
          [collectionId, c.input.query, results, provenanceId, now],
        );
        return row?.id ?? null;
      });
    } catch (err) {
      if (err instanceof StoreBusyError || isBusyError(err)) return null;
      throw err;
    }
  }

  /** Ranks, then builds the answer (not yet bounded or recorded). */
  async function answer(c: Context, filter: CodeFilter): Promise<CodeSearchResult> {
    const { input } = c;
    const pendingVectors = vectorModel !== null && c.index.embedded < c.index.chunks;
    if (pendingVectors) options.onVectorsPending?.();
    const vq = await queryVector(options.embedder, embedText, input.query, c.index);
    const vector: QueryVector | null = typeof vq === 'string' ? null : vq;
    // Never fewer candidates than the page asks for (CODE_FUSION fixes its depth at 50).
    const depth = Math.max(input.limit, fusionDepth(input.limit, fusion));
    const ranking = await rankChunks(store, input.query, filter, depth, vector, fusion);
    const kept = ranking.ranked.filter((r) => r.score >= input.minScore);
    const filteredOut =
      ranking.ranked.length === 0 &&
      narrowsSearch(input.filters) &&
      (await store.codeIndex.fullText(input.query, { collectionIds: filter.collectionIds }, 1))
        .length > 0;
    const status = statusOf(ranking, kept.length, filteredOut);
    const hits = await loadHits(store, kept.slice(0, input.limit), ranking.basis, input.query);
    const tally = {
      shown: hits.length,
      candidates: ranking.ranked.length,
      textMatches: ranking.textMatches,
      dropped: ranking.ranked.length - kept.length,
      best: ranking.ranked[0]?.score ?? null,
      minScore: input.minScore,
      basis: ranking.basis,
    };
    const degraded = typeof vq === 'string' ? vq : null;
    const message = sentences(
      outcomeText(status, tally, c.scope),
      buildingText(c.index.states, c.index.building),
      degraded === null ? null : `Vectors did not take part: ${degraded}; ranked by BM25 alone.`,
      staleText(c.index.states),
    );
    return fitAnswer(
      {
        ...baseResult(c, status, message),
        mode: ranking.hybrid ? 'hybrid' : 'fts',
        scoreBasis: ranking.basis,
        degraded: degraded !== null,
        degradedReason: degraded,
        candidates: tally.candidates,
        textMatches: tally.textMatches,
        droppedBelowMinScore: tally.dropped,
        bestScore: tally.best,
      },
      hits,
      maxBytes,
    );
  }

  return {
    async search(raw, provenance) {
      const input = checkInput(raw);
      const rows = await selectCollections(store, input.collection);
      const index = await indexStates(store, rows, {
        model: vectorModel,
        now: clock(),
        staleJobMs: CODE_SEARCH_DEFAULTS.staleJobMs,
        maxListed: CODE_SEARCH_DEFAULTS.maxIndexListed,
        freshness,
      });
      const c: Context = {
        input,
        scope: scopeLabel(input.collection, rows.length),
        index,
        listedOmitted: Math.max(0, rows.length - index.states.length),
      };
      const collectionIds = rows.map((r) => r.id);
      const result =
        index.chunks === 0
          ? fitAnswer(
              baseResult(c, 'empty_index', emptyIndexText(index.states, rows.length)),
              [],
              maxBytes,
            )
          : await answer(c, { collectionIds, ...input.filters });
      const single = rows.length === 1 ? (rows[0]?.id ?? null) : null;
      const searchId = await record(c, single, result.results.length, provenance);
      return { ...result, searchId };
    },
  };
}
