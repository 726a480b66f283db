// Duplicate blocks across the files of a project (validate_code with scope project): each file
// parsed once, reduced to its token stream and dropped, the streams winnowed into one clone
// index (clones.ts). Within-file clones are validateSource's (duplicate-block), not repeated
// here. No file system access: the caller hands in the files, one at a time if it likes.
import { DomainError, InvalidInputError } from '../../shared/errors.js';
import { CODE_LANGUAGES, type CodeLanguage } from '../languages.js';
import { parseSource } from '../parser.js';
import {
  type Clone,
  type CloneIndex,
  createCloneIndex,
  spanLines,
  type TokenStream,
  tokenStream,
  type Vocabulary,
} from './clones.js';
import type { RuleFinding, RuleSeverity, RuleThresholds } from './types.js';
import { MAX_VALIDATE_CHARS, thresholdsOf } from './validate.js';

/** One file of the project. */
export interface SourceFile {
  readonly path: string;
  readonly language: CodeLanguage;
  readonly text: string;
}

export interface DuplicateOptions {
  /** `duplicateTokens` and `duplicateLines` are read; other keys are validated and ignored. */
  readonly thresholds?: Partial<RuleThresholds>;
  /** Severity of the findings (default duplicate-block's, `warning`). */
  readonly severity?: RuleSeverity;
  /** Tokens kept over all files (default 5,000,000); files past it are not read. */
  readonly maxTokens?: number;
  /** Findings returned at most (default 1,000); the rest are counted in `omitted`. */
  readonly maxFindings?: number;
}

/** A block of `path` that repeats one of `duplicateOf.path` (an earlier file of the input). */
export interface DuplicateFinding extends RuleFinding {
  readonly endLine: number;
  readonly tokens: number;
  readonly duplicateOf: { readonly path: string; readonly line: number; readonly endLine: number };
}

export interface DuplicateReport {
  readonly findings: DuplicateFinding[];
  /** Findings past `maxFindings`. */
  readonly omitted: number;
  /** The files those omitted findings are in, each once. */
  readonly omittedIn: readonly string[];
  /** Files not compared, with why (too large, unsupported language, grammar failed). */
  readonly skipped: { readonly path: string; readonly reason: string }[];
  readonly files: number;
  readonly tokens: number;
  /** The token budget was reached: the last file read may be cut, later ones were not read. */
  readonly truncated: boolean;
}

export const DEFAULT_MAX_DUPLICATE_TOKENS = 5_000_000;
const DEFAULT_MAX_FINDINGS = 1_000;
const SEVERITIES: readonly RuleSeverity[] = ['error', 'warning', 'info'];

function checkOptions(options: DuplicateOptions): { severity: RuleSeverity } {
  const severity = options.severity ?? 'warning';
  if (!SEVERITIES.includes(severity)) {
    throw new InvalidInputError(`severity must be one of ${SEVERITIES.join(', ')}`, 'severity');
  }
  for (const key of ['maxTokens', 'maxFindings'] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new InvalidInputError(`${key} must be an integer ≥ 0`, key);
    }
  }
  return { severity };
}

/** Why a file cannot be compared, or null when it can. */
function refusal(file: SourceFile): string | null {
  if (!CODE_LANGUAGES.includes(file.language))
    return `unsupported language '${String(file.language)}'`;
  if (typeof file.text !== 'string') return 'text is not a string';
  if (file.text.length > MAX_VALIDATE_CHARS) return `over ${MAX_VALIDATE_CHARS} characters`;
  return null;
}

async function streamOf(file: SourceFile, vocabulary: Vocabulary, budget: number) {
  let tree;
  try {
    tree = await parseSource(file.language, file.text);
  } catch (cause) {
    throw new DomainError('grammar_unavailable', `cannot parse ${file.language}`, { cause });
  }
  try {
    return tokenStream(tree.rootNode, file.text, vocabulary, budget);
  } finally {
    tree.delete();
  }
}

/** The state of one scan: the index, the files read and what was found. */
interface Scan {
  readonly index: CloneIndex;
  readonly vocabulary: Vocabulary;
  readonly paths: string[];
  readonly findings: DuplicateFinding[];
  readonly skipped: { path: string; reason: string }[];
  readonly omittedIn: Set<string>;
  readonly severity: RuleSeverity;
  readonly maxFindings: number;
  tokens: number;
  omitted: number;
}

function toFinding(scan: Scan, stream: TokenStream, path: string, clone: Clone): DuplicateFinding {
  const copy = spanLines(stream, clone.copy);
  const original = spanLines(scan.index.streams[clone.original.file] ?? stream, clone.original);
  const originalPath = scan.paths[clone.original.file] ?? '';
  const tokens = clone.copy.end - clone.copy.start;
  return {
    path,
    line: copy.line,
    column: 1,
    endLine: copy.endLine,
    rule: 'duplicate-block',
    severity: scan.severity,
    message: `lines ${copy.line}–${copy.endLine} repeat ${originalPath} lines ${original.line}–${original.endLine} (${tokens} tokens)`,
    tokens,
    duplicateOf: { path: originalPath, line: original.line, endLine: original.endLine },
  };
}

/** Reads one file into the scan (or into `skipped`), within the remaining token budget. */
async function scanFile(scan: Scan, file: SourceFile, budget: number): Promise<void> {
  const why = refusal(file);
  if (why !== null) {
    scan.skipped.push({ path: String(file.path), reason: why });
    return;
  }
  let stream: TokenStream;
  try {
    stream = await streamOf(file, scan.vocabulary, budget);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    scan.skipped.push({ path: file.path, reason: error.message });
    return;
  }
  scan.tokens += stream.ids.length;
  scan.paths.push(file.path);
  for (const clone of scan.index.add(stream)) {
    if (scan.findings.length < scan.maxFindings) {
      scan.findings.push(toFinding(scan, stream, file.path, clone));
    } else {
      scan.omitted += 1;
      scan.omittedIn.add(file.path);
    }
  }
}

/** A scan fed one file at a time (validate_code's project walk); `report()` any time. */
export interface DuplicateScan {
  /** Compares one more file with those before it (a no-op once the token budget is spent). */
  add(file: SourceFile): Promise<void>;
  /** The token budget is spent: later files would not be read. */
  spent(): boolean;
  report(): DuplicateReport;
}

/**
 * The incremental form of findDuplicates, for a caller that reads files one by one and should
 * not hold their texts: only each file's token stream is kept.
 * @throws InvalidInputError (`thresholds`, `severity`, `maxTokens`, `maxFindings`).
 */
export function createDuplicateScan(options: DuplicateOptions = {}): DuplicateScan {
  const { severity } = checkOptions(options);
  const { duplicateTokens, duplicateLines } = thresholdsOf(options.thresholds);
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_DUPLICATE_TOKENS;
  const scan: Scan = {
    index: createCloneIndex({
      minTokens: Math.max(1, duplicateTokens),
      minLines: duplicateLines,
      withinFile: false,
    }),
    vocabulary: new Map(),
    paths: [],
    findings: [],
    skipped: [],
    omittedIn: new Set(),
    severity,
    maxFindings: options.maxFindings ?? DEFAULT_MAX_FINDINGS,
    tokens: 0,
    omitted: 0,
  };
  return {
    async add(file) {
      if (scan.tokens >= maxTokens) return;
      await scanFile(scan, file, maxTokens - scan.tokens);
    },
    spent: () => scan.tokens >= maxTokens,
    report() {
      const { findings, omitted, skipped, paths, tokens } = scan;
      // At the budget, the last file read may have been cut short.
      return {
        findings: [...findings],
        omitted,
        omittedIn: [...scan.omittedIn],
        skipped: [...skipped],
        files: paths.length,
        tokens,
        truncated: tokens >= maxTokens,
      };
    },
  };
}

/**
 * Duplicate blocks across `files` (at least `duplicateTokens` tokens spanning `duplicateLines`
 * lines, comments and layout ignored), each reported at the later file with the earlier one's
 * location. Input order decides which copy is "later": pass files sorted for stable answers.
 * @throws InvalidInputError (`thresholds`, `severity`, `maxTokens`, `maxFindings`).
 */
export async function findDuplicates(
  files: Iterable<SourceFile> | AsyncIterable<SourceFile>,
  options: DuplicateOptions = {},
): Promise<DuplicateReport> {
  const scan = createDuplicateScan(options);
  for await (const file of files) {
    if (scan.spent()) break;
    await scan.add(file);
  }
  return scan.report();
}
