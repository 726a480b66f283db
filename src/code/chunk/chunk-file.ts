// chunkFile: one file's text → syntax chunks (declarations), line windows for the rest, imports
// and outgoing references. One parse per file, the tree deleted before returning; never throws
// on bad source (syntax errors, unknown languages, minified text), only on a non-string input.
import { InvalidInputError } from '../../shared/errors.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { parseSource } from '../parser.js';
import { grammarSpec } from './grammar-table.js';
import { LineIndex } from './text.js';
import { type Bounds, declChunks, windowChunks } from './to-chunks.js';
import {
  CHUNK_DEFAULTS,
  type ChunkedFile,
  type ChunkInput,
  type ChunkOptions,
  type CodeChunk,
  type FallbackReason,
} from './types.js';
import { type WalkResult, walkTree } from './walk.js';

/** Top-level code between declarations becomes a window only with this many non-space characters. */
const MIN_GAP_CONTENT = 24;

function isCodeLanguage(language: string | null): language is CodeLanguage {
  return language !== null && (CODE_LANGUAGES as readonly string[]).includes(language);
}

async function parseAndWalk(
  language: CodeLanguage,
  text: string,
  bounds: Bounds,
): Promise<(WalkResult & { errors: boolean }) | null> {
  try {
    const tree = await parseSource(language, text);
    try {
      return { ...walkTree(tree, grammarSpec(language), bounds), errors: tree.rootNode.hasError };
    } finally {
      tree.delete();
    }
  } catch {
    return null;
  }
}

interface Extra {
  imports?: string[];
  errors?: boolean;
}

function assemble(
  input: ChunkInput,
  maxChunks: number,
  mode: ChunkedFile['mode'],
  reason: FallbackReason | null,
  chunks: CodeChunk[],
  extra: Extra,
): ChunkedFile {
  return {
    path: input.path,
    language: input.language ?? 'text',
    mode,
    fallbackReason: reason,
    hasSyntaxErrors: extra.errors ?? false,
    imports: extra.imports ?? [],
    chunks: chunks.slice(0, maxChunks),
    truncated: chunks.length > maxChunks,
  };
}

/**
 * Chunks one file by syntax (functions, methods, classes, interfaces and their equivalents),
 * with line windows for top-level code and for files without a grammar or declarations.
 * Chunks are ordered by start line (a container before its members).
 * @throws InvalidInputError when `path` or `text` is not a string, or `language` neither a string nor null.
 */
export async function chunkFile(
  input: ChunkInput,
  options: ChunkOptions = {},
): Promise<ChunkedFile> {
  if (typeof input.path !== 'string') throw new InvalidInputError('path must be a string', 'path');
  if (typeof input.text !== 'string') throw new InvalidInputError('text must be a string', 'text');
  if (input.language !== null && typeof input.language !== 'string') {
    throw new InvalidInputError('language must be a string or null', 'language');
  }
  const bounds: Bounds = { ...CHUNK_DEFAULTS, ...options };
  const lines = new LineIndex(input.text);
  const language = input.language;
  const result = (
    mode: ChunkedFile['mode'],
    reason: FallbackReason | null,
    chunks: CodeChunk[],
    extra: Extra = {},
  ): ChunkedFile => assemble(input, bounds.maxChunks, mode, reason, chunks, extra);
  const fallback = (reason: FallbackReason): ChunkedFile =>
    result('fallback', reason, windowChunks(lines, [], [], bounds, 1));
  if (!isCodeLanguage(language)) return fallback('no-grammar');
  if (lines.longest > bounds.longLineChars) return fallback('long-lines');
  const walked = await parseAndWalk(language, input.text, bounds);
  if (walked === null) return fallback('parse-failed');
  const extra = { imports: walked.imports, errors: walked.errors };
  if (walked.decls.length === 0) {
    return result(
      'fallback',
      'no-declarations',
      windowChunks(lines, [], walked.top, bounds, 1),
      extra,
    );
  }
  try {
    return result('syntax', null, syntaxChunks(lines, walked, language, bounds), extra);
  } catch {
    return fallback('parse-failed');
  }
}

/** Declaration chunks plus windows over the top-level code between them, in line order. */
function syntaxChunks(
  lines: LineIndex,
  walked: WalkResult,
  language: CodeLanguage,
  bounds: Bounds,
): CodeChunk[] {
  const decls = declChunks(lines, walked.decls, grammarSpec(language).leading, bounds);
  const gaps = windowChunks(lines, decls.covered, walked.top, bounds, MIN_GAP_CONTENT);
  return [...decls.chunks, ...gaps].sort(
    (a, b) => a.startLine - b.startLine || b.endLine - a.endLine,
  );
}
