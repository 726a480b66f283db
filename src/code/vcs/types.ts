// The shapes the version-control functions return (compare_branches, analyze_impact) and the
// reference-graph interface impact analysis walks. Types and constants only: no git, no store.
import type { ChunkKind } from '../chunk/index.js';

/** How a file changed between the two sides (git's A, D, M/T, R). */
export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed';

/** Whether a changed file's symbols were compared, and if not, why. */
export type SymbolDiffState =
  'parsed' | 'no_grammar' | 'binary' | 'too_large' | 'file_limit' | 'unreadable';

/** One file the branch changes. */
export interface FileChange {
  /** The path on the target side (the base side for a removed file). */
  path: string;
  /** The base-side path of a renamed file, else null. */
  previousPath: string | null;
  status: FileStatus;
  /** Lines added / removed (git numstat); null for a binary file. */
  linesAdded: number | null;
  linesRemoved: number | null;
  binary: boolean;
  /** Rename similarity in percent (git's R087 → 87), else null. */
  similarity: number | null;
  /** A CodeLanguage, or null (no grammar). */
  language: string | null;
  symbolDiff: SymbolDiffState;
  /** Symbol counts when `symbolDiff` is `parsed`, else null. */
  symbols: SymbolCounts | null;
}

export interface SymbolCounts {
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
}

/** A declaration the branch adds, removes or changes, matched by (container, name, kind). */
export interface SymbolChange {
  /** The file on the side the symbol exists (target, or base for a removed symbol). */
  path: string;
  /** The base-side path when the file was renamed, else null. */
  previousPath: string | null;
  /** Qualified name (`Class.method`). */
  symbol: string;
  /** The last segment of `symbol`. */
  name: string;
  /** The enclosing declaration's qualified name, or null at top level. */
  container: string | null;
  kind: ChunkKind;
  change: 'added' | 'removed' | 'changed';
  /** `changed` only: the declaration head differs (parameters, return type, modifiers). */
  signatureChanged: boolean;
  /** Target-side signature (base-side for a removed symbol). */
  signature: string;
  /** Base-side signature of a changed symbol, else null. */
  previousSignature: string | null;
  /** 1-based inclusive lines on the side named by `path`. */
  startLine: number;
  endLine: number;
}

/** A resolved side of the comparison. */
export interface ComparedRef {
  /** The ref as asked (or the default chosen). */
  ref: string;
  commit: string;
  /** True when the caller did not name it and the default was used. */
  defaulted: boolean;
}

/** What compareBranches answers. */
export interface BranchComparison {
  repoPath: string;
  base: ComparedRef;
  target: ComparedRef;
  /** The commit the diff starts from: the merge base, or the base itself (`direct`). */
  from: string;
  /** `merge-base`: what target changes since it forked (base...target); `direct`: no common ancestor. */
  comparison: 'merge-base' | 'direct';
  /** Exact totals over the whole diff (git --shortstat), whatever was listed. */
  totals: { files: number; linesAdded: number; linesRemoved: number };
  files: FileChange[];
  symbols: SymbolChange[];
  /** Totals over every parsed file (`symbols` may list fewer). */
  symbolTotals: SymbolCounts & { signatureChanged: number };
  /** What a bound cut: files listed, files parsed, symbols listed. */
  truncated: { files: boolean; parsed: boolean; symbols: boolean };
}

/** One edge of the reference graph: `path`/`symbol` uses `name` (null symbol: top-level code). */
export interface GraphReference {
  path: string;
  symbol: string | null;
  name: string;
  kind: 'call' | 'reference' | 'import';
}

/** Which graph answered, for the result. */
export interface GraphInfo {
  source: 'index' | 'tree';
  /** index: the collection's name and the branch read ('' = work tree). */
  collection?: string;
  branch?: string;
  /** index: when the collection was last brought up to date (epoch ms), or null. */
  indexedAt?: number | null;
  /** tree: the commit read. */
  commit?: string;
  /** A bound cut what the graph could see (rows, files read). */
  truncated: boolean;
}

/**
 * The references impact analysis walks. `referencesTo` is the one the brief names; the others
 * give import edges and let the analysis tell whether the graph matches the target.
 */
export interface ReferenceGraph {
  /** The chunks that call or reference one of `names` (simple names, as the chunker records). */
  referencesTo(names: readonly string[]): Promise<GraphReference[]>;
  /** Files whose imports resolve to one of `paths` (kind `import`, name = the specifier). */
  importersOf(paths: readonly string[]): Promise<GraphReference[]>;
  /** The import specifiers of each of `paths` the graph knows. */
  importsOf(paths: readonly string[]): Promise<Map<string, readonly string[]>>;
  /** The sha256 (hex) of the content the graph holds for each of `paths` it knows. */
  contentHashes(paths: readonly string[]): Promise<Map<string, string>>;
  info(): GraphInfo;
}
