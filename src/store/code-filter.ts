// What a code search may return: the collections (the partitions it ranks in), and optionally
// file extensions, a path prefix and branches, checked by joining the chunk's file.
import type { SqlValue } from './types.js';

export interface CodeFilter {
  /** Collections to search (ids of code_collections); nothing is searched when empty. */
  collectionIds: readonly number[];
  /** File extensions (`ts`, `.ts` or `*.ts`, case-insensitive, suffix match so `d.ts` works). */
  extensions?: readonly string[];
  /** A repository-relative path prefix, matched as a string (`src/` for a folder). */
  pathPrefix?: string;
  /** Branches of the files ('' is the work tree); all when absent or empty. */
  branches?: readonly string[];
}

/** `.ts` for `ts`, `.ts`, `*.ts`, `.TS`; null for a blank one. */
const suffixOf = (ext: string): string | null => {
  const bare = ext
    .trim()
    .replace(/^\*?\.?/, '')
    .toLowerCase();
  return bare === '' ? null : `.${bare}`;
};

/** True when the filter narrows below whole collections (results then need a recheck). */
export function narrows(filter: CodeFilter): boolean {
  return (
    (filter.extensions ?? []).some((e) => suffixOf(e) !== null) ||
    (filter.pathPrefix ?? '').replace(/^\.?\/+/, '') !== '' ||
    (filter.branches ?? []).length > 0
  );
}

/** A WHERE fragment over `code_chunks c JOIN code_files f` for everything but the ids. */
export function codeFilterSql(filter: CodeFilter): { sql: string; params: SqlValue[] } {
  const parts = ['c.collection_id IN (SELECT value FROM json_each(?))'];
  const params: SqlValue[] = [JSON.stringify(filter.collectionIds)];
  const suffixes = (filter.extensions ?? []).flatMap((e) => suffixOf(e) ?? []);
  if (suffixes.length > 0) {
    parts.push(`(${suffixes.map(() => 'substr(lower(f.path), -?) = ?').join(' OR ')})`);
    for (const s of suffixes) params.push([...s].length, s);
  }
  const prefix = (filter.pathPrefix ?? '').replace(/^\.?\/+/, '');
  if (prefix !== '') {
    parts.push('substr(f.path, 1, ?) = ?');
    params.push([...prefix].length, prefix);
  }
  if ((filter.branches ?? []).length > 0) {
    parts.push('f.branch IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(filter.branches ?? []));
  }
  return { sql: parts.join(' AND '), params };
}
