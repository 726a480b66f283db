// What a code search may return: the collections (the partitions it ranks in), and optionally
// file extensions, path prefixes, branches, languages, chunk kinds and symbols, checked by
// joining the chunk's file. Within one criterion any value may match; all criteria must hold.
import type { SqlValue } from './types.js';

export interface CodeFilter {
  /** Collections to search (ids of code_collections); nothing is searched when empty. */
  collectionIds: readonly number[];
  /** File extensions (`ts`, `.ts` or `*.ts`, case-insensitive, suffix match so `d.ts` works). */
  extensions?: readonly string[];
  /** A repository-relative path prefix, matched as a string (`src/` for a folder). */
  pathPrefix?: string;
  /** Several path prefixes, any of which may match (with `pathPrefix`, both must hold). */
  pathPrefixes?: readonly string[];
  /** Branches of the files ('' is the work tree); all when absent or empty. */
  branches?: readonly string[];
  /** File languages as stored (`typescript`, `python`, …); null is a file without a grammar. */
  languages?: readonly (string | null)[];
  /** Chunk kinds (`function`, `method`, `class`, …, `window`). */
  kinds?: readonly string[];
  /**
   * Symbols, case-insensitive: a chunk matches `name` when its symbol is `name`, ends in
   * `.name` (a member) or starts with `name.` (a container's members).
   */
  symbols?: readonly string[];
}

/** `.ts` for `ts`, `.ts`, `*.ts`, `.TS`; null for a blank one. */
const suffixOf = (ext: string): string | null => {
  const bare = ext
    .trim()
    .replace(/^\*?\.?/, '')
    .toLowerCase();
  return bare === '' ? null : `.${bare}`;
};

const prefixOf = (path: string): string => path.replace(/^\.?\/+/, '');

const symbolsOf = (filter: CodeFilter): string[] =>
  (filter.symbols ?? []).map((s) => s.trim().toLowerCase()).filter((s) => s !== '');

/** True when the filter narrows below whole collections (results then need a recheck). */
export function narrows(filter: CodeFilter): boolean {
  return (
    (filter.extensions ?? []).some((e) => suffixOf(e) !== null) ||
    prefixOf(filter.pathPrefix ?? '') !== '' ||
    (filter.pathPrefixes ?? []).some((p) => prefixOf(p) !== '') ||
    (filter.branches ?? []).length > 0 ||
    (filter.languages ?? []).length > 0 ||
    (filter.kinds ?? []).length > 0 ||
    symbolsOf(filter).length > 0
  );
}

type Part = { sql: string; params: SqlValue[] };

/** `(a OR b …)` over the values, or null when there are none. */
function anyOf<T>(values: readonly T[], one: (v: T) => Part): Part | null {
  if (values.length === 0) return null;
  const parts = values.map(one);
  return {
    sql: `(${parts.map((p) => p.sql).join(' OR ')})`,
    params: parts.flatMap((p) => p.params),
  };
}

/** `column IN (?, …)` over the values (portable: no json_each), or null when there are none. */
const inValues = (column: string, values: readonly SqlValue[]): Part | null =>
  values.length === 0
    ? null
    : { sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: [...values] };

/** `text` ends with `suffix`, portably (a negative substr start differs between dialects). */
const endsWith = (text: string, suffix: string): Part => ({
  sql: `substr(${text}, length(${text}) - ? + 1) = ?`,
  params: [[...suffix].length, suffix],
});

function languagePart(languages: readonly (string | null)[]): Part | null {
  const named = languages.filter((l): l is string => l !== null);
  const parts = [inValues('f.language', named)];
  if (named.length < languages.length) parts.push({ sql: 'f.language IS NULL', params: [] });
  return anyOf(
    parts.filter((p): p is Part => p !== null),
    (p) => p,
  );
}

const prefixPart = (prefix: string): Part => ({
  sql: 'substr(f.path, 1, ?) = ?',
  params: [[...prefix].length, prefix],
});

function symbolPart(name: string): Part {
  const dotted = endsWith('lower(c.symbol)', `.${name}`);
  return {
    sql: `lower(c.symbol) = ? OR ${dotted.sql} OR substr(lower(c.symbol), 1, ?) = ?`,
    params: [name, ...dotted.params, [...name].length + 1, `${name}.`],
  };
}

/** A WHERE fragment over `code_chunks c JOIN code_files f` for everything but the ids. */
export function codeFilterSql(filter: CodeFilter): { sql: string; params: SqlValue[] } {
  const suffixes = (filter.extensions ?? []).flatMap((e) => suffixOf(e) ?? []);
  const prefix = prefixOf(filter.pathPrefix ?? '');
  const prefixes = (filter.pathPrefixes ?? []).map(prefixOf).filter((p) => p !== '');
  const parts: (Part | null)[] = [
    inValues('c.collection_id', filter.collectionIds) ?? { sql: '1 = 0', params: [] },
    anyOf(suffixes, (s) => endsWith('lower(f.path)', s)),
    prefix === '' ? null : prefixPart(prefix),
    anyOf(prefixes, prefixPart),
    inValues('f.branch', filter.branches ?? []),
    languagePart(filter.languages ?? []),
    inValues('c.kind', filter.kinds ?? []),
    anyOf(symbolsOf(filter), symbolPart),
  ];
  const kept = parts.filter((p): p is Part => p !== null);
  return { sql: kept.map((p) => p.sql).join(' AND '), params: kept.flatMap((p) => p.params) };
}
