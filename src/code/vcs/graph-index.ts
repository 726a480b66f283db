// The reference graph over an index (migration 20): code_refs ⋈ code_chunks ⋈ code_files of
// one collection and branch, plus each file's stored imports. Portable SQL through the store;
// every query is bounded and a bound that bites marks the graph truncated.
import { InvalidInputError, NotFoundError } from '../../shared/index.js';
import { inChunks, inList, type SqlValue, type Store } from '../../store/index.js';
import { importHints, importNames } from './import-resolve.js';
import type { GraphInfo, GraphReference, ReferenceGraph } from './types.js';

/** Rows one query returns at most. */
export const INDEX_GRAPH_MAX_ROWS = 5000;
const BATCH = 200;

export interface IndexGraphOptions {
  /** The `code_files.branch` to read ('' = the work tree). Default: '' when indexed, else the only branch. */
  branch?: string;
  maxRows?: number;
}

interface CollectionRow {
  id: number;
  name: string;
  indexed_at: number | null;
}

const batches = <T>(items: readonly T[]): T[][] => inChunks(items, BATCH);
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function parseImports(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

async function pickBranch(store: Store, collectionId: number, asked: string | undefined) {
  if (asked !== undefined) {
    if (typeof asked !== 'string') throw new InvalidInputError('branch must be a string', 'branch');
    return asked;
  }
  const rows = await store.all<{ branch: string }>(
    'SELECT DISTINCT branch FROM code_files WHERE collection_id = ? ORDER BY branch LIMIT 3',
    [collectionId],
  );
  const names = rows.map((r) => r.branch);
  if (names.length <= 1 || names.includes('')) return names.includes('') ? '' : (names[0] ?? '');
  throw new InvalidInputError(
    `branch: the collection indexes several branches (${names.join(', ')}, …); name one`,
    'branch',
  );
}

/**
 * A ReferenceGraph over collection `collectionId` of the code index. Throws NotFoundError for
 * an unknown collection, InvalidInputError (`branch`) when it indexes several branches and
 * none was named.
 */
export async function indexReferenceGraph(
  store: Store,
  collectionId: number,
  options: IndexGraphOptions = {},
): Promise<ReferenceGraph> {
  const collection = await store.get<CollectionRow>(
    'SELECT id, name, indexed_at FROM code_collections WHERE id = ?',
    [collectionId],
  );
  if (collection === undefined) throw new NotFoundError(`no code collection ${collectionId}`);
  const branch = await pickBranch(store, collectionId, options.branch);
  const maxRows = options.maxRows ?? INDEX_GRAPH_MAX_ROWS;
  let truncated = false;
  const scope: SqlValue[] = [collectionId, branch];
  const query = async <T>(sql: string, params: SqlValue[]) => {
    const rows = await store.all<T>(`${sql} LIMIT ${maxRows}`, [...scope, ...params]);
    if (rows.length >= maxRows) truncated = true;
    return rows;
  };
  const fileRows = async (paths: readonly string[]) => {
    const rows: { path: string; imports: string; hash: string }[] = [];
    for (const batch of batches(paths)) {
      rows.push(
        ...(await query<{ path: string; imports: string; hash: string }>(
          `SELECT path, imports, hash FROM code_files
           WHERE collection_id = ? AND branch = ? AND path IN ${inList(batch.length)}`,
          batch,
        )),
      );
    }
    return rows;
  };
  return {
    async referencesTo(names) {
      const out: GraphReference[] = [];
      for (const batch of batches([...new Set(names)])) {
        const rows = await query<GraphReference>(
          `SELECT f.path AS path, c.symbol AS symbol, r.name AS name, r.kind AS kind
           FROM code_refs r
           JOIN code_chunks c ON c.id = r.chunk_id
           JOIN code_files f ON f.id = c.file_id
           WHERE r.collection_id = ? AND f.branch = ? AND r.name IN ${inList(batch.length)}
           ORDER BY f.path, c.start_line, r.name`,
          batch,
        );
        out.push(...rows);
      }
      return out;
    },
    async importersOf(paths) {
      const hints = [...new Set(paths.flatMap(importHints))];
      const out: GraphReference[] = [];
      const seen = new Set<string>();
      for (const batch of batches(hints)) {
        const likes = batch.map(() => "lower(imports) LIKE lower(?) ESCAPE '\\'").join(' OR ');
        const rows = await query<{ path: string; imports: string }>(
          `SELECT path, imports FROM code_files
           WHERE collection_id = ? AND branch = ? AND (${likes}) ORDER BY path`,
          batch.map((h) => `%${likeEscape(h)}%`),
        );
        for (const row of rows) {
          for (const spec of parseImports(row.imports)) {
            const key = `${row.path}\0${spec}`;
            if (seen.has(key)) continue;
            if (paths.some((p) => p !== row.path && importNames(row.path, spec, p))) {
              seen.add(key);
              out.push({ path: row.path, symbol: null, name: spec, kind: 'import' });
            }
          }
        }
      }
      return out;
    },
    async importsOf(paths) {
      const rows = await fileRows(paths);
      return new Map(rows.map((r) => [r.path, parseImports(r.imports)]));
    },
    async contentHashes(paths) {
      const rows = await fileRows(paths);
      return new Map(rows.map((r) => [r.path, r.hash]));
    },
    info(): GraphInfo {
      return {
        source: 'index',
        collection: collection.name,
        branch,
        indexedAt: collection.indexed_at,
        truncated,
      };
    },
  };
}
