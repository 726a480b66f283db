// Scoped memory search: full-text (BM25), vector (cosine) and hybrid (reciprocal-rank fusion).
// Vector and hybrid degrade to full-text, saying so, when no embedder is configured.
import type { Store } from '../store/index.js';
import { fuseRrf, type FusionOptions } from './fusion.js';
import type { MemoryEmbedder, Scope, SearchHit, SearchMode, SearchResult } from './model.js';
import { type ItemRow, parseTags } from './rows.js';
import { visibleTo } from './scope.js';

export interface SearchInput {
  query: string;
  mode?: SearchMode | undefined;
  limit?: number | undefined;
  scope: Scope;
}

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
    if (rowids.length === 0) return new Map();
    const unique = [...new Set(rowids)];
    const rows = await store.all<ItemRow>(
      `SELECT * FROM memory_items WHERE rowid IN (${unique.map(() => '?').join(',')})`,
      unique,
    );
    return new Map(rows.map((r) => [r.rowid, r]));
  }

  async function nearest(query: string, scope: Scope, limit: number) {
    if (embedder === null) return null;
    const [vector] = await embedder.embed([query]);
    if (vector === undefined) return null;
    return store.memoryIndex.nearest(embedder.model, vector, visibleTo(scope), limit);
  }

  /** Runs one scoped search. Results cite item ids, with a score and its basis. */
  return async function search(input: SearchInput): Promise<SearchResult> {
    const mode = input.mode ?? 'fts';
    const limit = input.limit ?? 10;
    const depth = mode === 'hybrid' ? Math.max(limit * 3, 30) : limit;
    const vec = mode === 'fts' ? [] : await nearest(input.query, input.scope, depth);
    const effective: SearchMode = vec === null ? 'fts' : mode;
    const fts =
      effective === 'vector'
        ? []
        : await store.memoryIndex.fullText(input.query, visibleTo(input.scope), depth);
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
      const fused = fuseRrf(
        fts.map((h) => h.rowid),
        (vec ?? []).map((h) => h.rowid),
        fusion,
      );
      results = pick(fused, (row, f) =>
        toHit(row, {
          score: f.score,
          scoreBasis: 'rrf',
          ranks: f.ranks,
          snippet: snippets.get(f.rowid) ?? snippetOf(row.content),
        }),
      );
    }
    const out: SearchResult = { mode, results };
    if (vec === null) {
      out.degraded = true;
      out.degradedReason =
        'no embedder configured (CAIRN_EMBEDDINGS=none); answered with full-text search';
    }
    return out;
  };
}
