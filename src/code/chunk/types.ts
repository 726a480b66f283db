// The shapes chunkFile returns and the bounds it works within. Pure types and constants: no
// parsing, no I/O.

/** Every chunk kind: declaration kinds, and `window` for line windows (fallback and top-level code). */
export const CHUNK_KINDS = [
  'function',
  'method',
  'class',
  'interface',
  'struct',
  'enum',
  'trait',
  'impl',
  'module',
  'type',
  'window',
] as const;

/** What a chunk is: a declaration kind, or `window` for line windows. */
export type ChunkKind = (typeof CHUNK_KINDS)[number];

/** One searchable piece of a file. Lines are 1-based and inclusive. */
export interface CodeChunk {
  kind: ChunkKind;
  /** Qualified name (`Class.method`, `geo.Shape.print`), or null for windows. */
  symbol: string | null;
  /** The qualified name of the enclosing declaration, or null at top level. */
  parent: string | null;
  /** The declaration head without its body, on one line, at most `maxSignatureChars`; '' for windows. */
  signature: string;
  /** First line, including leading doc comments, decorators and attributes. */
  startLine: number;
  endLine: number;
  /**
   * The source of those lines. Containers (classes, interfaces, modules, impls …) hold their
   * header and members with the bodies of member declarations elided (those are chunks of their
   * own); lines longer than `maxLineChars` are cut.
   */
  text: string;
  /** Names of called functions/constructors/macros (last segment), deduplicated, bounded. */
  calls: string[];
  /** Other identifiers and type names referenced, deduplicated, bounded, excluding `calls`. */
  references: string[];
  /** 1-based window number when a long declaration or a file is split, and the window count. */
  part: number;
  parts: number;
}

/** Why a file was chunked by line windows instead of by syntax. */
export type FallbackReason = 'no-grammar' | 'parse-failed' | 'no-declarations' | 'long-lines';

/** Everything chunkFile learns about one file. */
export interface ChunkedFile {
  path: string;
  language: string;
  /** `syntax` when declarations were found, else `fallback` (see `fallbackReason`). */
  mode: 'syntax' | 'fallback';
  fallbackReason: FallbackReason | null;
  /** The parse met syntax errors (what parsed is still chunked). */
  hasSyntaxErrors: boolean;
  /** Module specifiers the file imports, in order of first appearance, deduplicated, bounded. */
  imports: string[];
  chunks: CodeChunk[];
  /** True when `maxChunks` cut the list. */
  truncated: boolean;
}

/** What to chunk. `language` is a CodeLanguage for syntax chunking; anything else falls back. */
export interface ChunkInput {
  path: string;
  language: string | null;
  text: string;
}

/** Bounds, all optional; see CHUNK_DEFAULTS. */
export interface ChunkOptions {
  /** A declaration longer than this many lines is split into windows. */
  maxChunkLines?: number;
  /** Window size and overlap (lines) when splitting a long declaration. */
  splitWindowLines?: number;
  splitOverlapLines?: number;
  /** Window size and overlap (lines) for files (or top-level code) without declarations. */
  windowLines?: number;
  windowOverlapLines?: number;
  /** Lines longer than this are cut in chunk text. */
  maxLineChars?: number;
  /** A file with a line longer than this (minified, generated) is not parsed, only windowed. */
  longLineChars?: number;
  maxSignatureChars?: number;
  maxChunks?: number;
  maxCalls?: number;
  maxReferences?: number;
  maxImports?: number;
}

/** The defaults, documented in docs/code-context.md ("Chunking by syntax"). */
export const CHUNK_DEFAULTS: Readonly<Required<ChunkOptions>> = {
  maxChunkLines: 200,
  splitWindowLines: 120,
  splitOverlapLines: 20,
  windowLines: 60,
  windowOverlapLines: 10,
  maxLineChars: 1000,
  longLineChars: 5000,
  maxSignatureChars: 200,
  maxChunks: 2000,
  maxCalls: 64,
  maxReferences: 128,
  maxImports: 256,
};
