// Scoped memory search: full-text (BM25), vector (cosine) and hybrid (fusion of the two).
// Vector and hybrid degrade to full-text, saying so, when no embedder is configured or it fails.
import { fusionDepth, type FusionOptions } from '../search/index.js';
import { memoryItemsByRowids, type SqlFilter, type Store } from '../store/index.js';
import { applyCutoff, type RelevanceCutoff } from './cutoff.js';
import { fuseChannels } from './hybrid.js';
import type { MemoryEmbedder, Scope, SearchHit, SearchMode, SearchResult } from './model.js';
import { type ItemRow, parseTags } from './rows.js';
import { visibleTo } from './scope.js';

export interface SearchInput {
  query: string;
  mode?: SearchMode | undefined;
  limit?: number | undefined;
  scope: Scope;
  /** Marks weak vector / hybrid hits (see cutoff.ts); the dashboard's option, not the MCP tool's. */
  cutoff?: RelevanceCutoff | undefined;
  /**
   * Searches the items this filter over `memory_items m` admits instead of the scope's facts
   * and procedures (observation memory passes its own: observations, or facts and observations).
   */
  filter?: SqlFilter | undefined;
}

const NO_EMBEDDER =
  'no embedder configured (CAIRN_EMBEDDINGS=none); answered with full-text search';
const EMBED_FAILED = 'could not embed the query; answered with full-text search';

const SNIPPET_CHARS = 240;
const snippetOf = (content: string): string =>
  content.length <= SNIPPET_CHARS ? content : `${content.slice(0, SNIPPET_CHARS)}…`;

type HitScore = Pick<SearchHit, 'score' | 'scoreBasis' | 'ranks' | 'snippet'>;

function toHit(row: ItemRow, score: HitScore): SearchHit {
  const out: SearchHit = {
    id: row.id,
    kind: row.kind,
    title: row.title,
    tags: parseTags(row.tags),
    teamId: row.team_id === '' ? null : row.team_id,
    agentId: row.agent_id === '' ? null : row.agent_id,
    createdAt: new Date(row.created_at).toISOString(),
    ...score,
  };
  if (row.kind === 'procedure' && row.name !== null) {
    out.procedureName = row.name;
    out.version = row.version;
  }
  return out;
}

/** Builds the search function over a store and an optional embedder. */
export function createSearch(
  store: Store,
  embedder: MemoryEmbedder | null,
  fusion: FusionOptions = {},
) {
  async function rowsById(rowids: readonly number[]): Promise<Map<number, ItemRow>> {
    const rows = await memoryItemsByRowids<ItemRow>(store, rowids);
    return new Map(rows.map((r) => [r.rowid, r]));
  }

  /** Nearest visible items, or why vectors cannot answer (no embedder, or it failed). */
  async function nearest(query: string, filter: SqlFilter, limit: number) {
    if (embedder === null) return NO_EMBEDDER;
    let vector: Float32Array | undefined;
    try {
      [vector] = await embedder.embed([query]);
    } catch {
      vector = undefined;
    }
    if (vector === undefined) return `the embedder (${embedder.model}) ${EMBED_FAILED}`;
    const hits = await store.memoryIndex.nearest(embedder.model, vector, filter, limit);
    return { model: embedder.model, vector, hits };
  }

  /** Runs one scoped search. Results cite item ids, with a score and its basis. */
  return async function search(input: SearchInput): Promise<SearchResult> {
    const mode = input.mode ?? 'fts';
    const limit = input.limit ?? 10;
    const depth = mode === 'hybrid' ? fusionDepth(limit, fusion) : limit;
    const filter = input.filter ?? visibleTo(input.scope);
    const found = mode === 'fts' ? null : await nearest(input.query, filter, depth);
    const vec = typeof found === 'string' ? null : (found?.hits ?? []);
    const effective: SearchMode = vec === null ? 'fts' : mode;
    const fts =
      effective === 'vector' ? [] : await store.memoryIndex.fullText(input.query, filter, depth);
    const rows = await rowsById([...fts.map((h) => h.rowid), ...(vec ?? []).map((h) => h.rowid)]);
    const pick = <T extends { rowid: number }>(
      list: readonly T[],
      make: (row: ItemRow, h: T, i: number) => SearchHit,
    ) =>
      list.slice(0, limit).flatMap((h, i) => {
        const row = rows.get(h.rowid);
        return row === undefined ? [] : [make(row, h, i)];
      });
    let results: SearchHit[];
    if (effective === 'fts') {
      results = pick(fts, (row, h, i) =>
        toHit(row, {
          score: h.score,
          scoreBasis: 'fts-bm25',
          ranks: { fts: i + 1, vector: null },
          snippet: h.snippet,
        }),
      );
    } else if (effective === 'vector') {
      results = pick(vec ?? [], (row, h, i) =>
        toHit(row, {
          score: 1 - h.distance,
          scoreBasis: 'vector-cosine',
          ranks: { fts: null, vector: i + 1 },
          snippet: snippetOf(row.content),
        }),
      );
    } else {
      const snippets = new Map(fts.map((h) => [h.rowid, h.snippet]));
      const fused =
        found === null || typeof found === 'string'
          ? []
          : await fuseChannels({
              index: store.memoryIndex,
              model: found.model,
              query: found.vector,
              fts,
              vector: found.hits,
              options: fusion,
            });
      results = pick(fused, (row, f) =>
        toHit(row, {
          score: f.score,
          scoreBasis: fusion.method === 'zscore' ? 'fused' : 'rrf',
          ranks: f.ranks,
          snippet: snippets.get(f.rowid) ?? snippetOf(row.content),
        }),
      );
    }
    const out: SearchResult = { mode, results };
    if (typeof found === 'string') {
      out.degraded = true;
      out.degradedReason = found;
    }
    if (input.cutoff === undefined || vec === null) return out;
    const cosines = new Map(
      vec.flatMap((h) => {
        const id = rows.get(h.rowid)?.id;
        return id === undefined ? [] : [[id, 1 - h.distance] as const];
      }),
    );
    return applyCutoff(out, cosines, input.cutoff);
  };
}
