// Turns ranked chunk ids into search hits: the chunk's file, lines, symbol and kind, and a
// snippet of whole lines around the best match. Reads chunk and file rows; no ranking here.
import { codeTokenizer, lineSnippet } from '../../search/index.js';
import { inChunks, inList, type Store } from '../../store/index.js';
import type { RankedChunk } from './rank.js';
import type { CodeSearchHit, ScoreBasis } from './types.js';

export interface HitRow {
  id: number;
  collection: string;
  path: string;
  branch: string;
  language: string | null;
  kind: string;
  symbol: string | null;
  signature: string | null;
  start_line: number;
  end_line: number;
  text: string;
}

/** Kinds whose chunk text is an outline (member bodies elided), not the file's lines. */
const OUTLINES = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'impl', 'module']);

/** The chunk rows of `ids` with their file and collection (ids no longer stored are absent). */
export async function rowsOf(store: Store, ids: readonly number[]): Promise<Map<number, HitRow>> {
  const out = new Map<number, HitRow>();
  for (const part of inChunks(ids)) {
    const rows = await store.all<HitRow>(
      `SELECT c.id, k.name AS collection, f.path, f.branch, f.language, c.kind, c.symbol,
         c.signature, c.start_line, c.end_line, c.text
       FROM code_chunks c JOIN code_files f ON f.id = c.file_id
         JOIN code_collections k ON k.id = c.collection_id
       WHERE c.id IN ${inList(part.length)}`,
      part,
    );
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

function hitOf(row: HitRow, ranked: RankedChunk, basis: ScoreBasis, terms: ReadonlySet<string>) {
  const s = lineSnippet(row.text, terms, codeTokenizer);
  const exact = !OUTLINES.has(row.kind);
  const at = (i: number): number => row.start_line + i;
  const hit: CodeSearchHit = {
    collection: row.collection,
    path: row.path,
    branch: row.branch,
    language: row.language,
    kind: row.kind,
    symbol: row.symbol,
    signature: row.signature,
    startLine: row.start_line,
    endLine: row.end_line,
    snippet: s.lines.join('\n'),
    snippetLines: exact
      ? {
          start: at(s.first),
          end: at(s.first + Math.max(0, s.lines.length - 1)),
          matches: s.matches.map(at),
        }
      : null,
    score: ranked.score,
    scoreBasis: basis,
    ranks: ranked.ranks,
  };
  return hit;
}

/**
 * The hits of `ranked` in order (chunks deleted since they were ranked are left out), their
 * snippets around the query's terms.
 */
export async function loadHits(
  store: Store,
  ranked: readonly RankedChunk[],
  basis: ScoreBasis,
  query: string,
): Promise<CodeSearchHit[]> {
  const rows = await rowsOf(
    store,
    ranked.map((r) => r.chunkId),
  );
  const terms = new Set(codeTokenizer.queryTerms(query));
  return ranked.flatMap((r) => {
    const row = rows.get(r.chunkId);
    return row === undefined ? [] : [hitOf(row, r, basis, terms)];
  });
}
