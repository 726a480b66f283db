// compare_branches: what the target branch changes since it forked from the base (merge-base
// form, as `git diff base...target`), file by file with line counts, and declaration by
// declaration from the syntax trees of both sides. Every list is bounded and says when cut.
import { InvalidInputError } from '../../shared/index.js';
import { chunkFile } from '../chunk/index.js';
import { languageOf } from '../languages.js';
import { type DiffEntry, listChangedFiles } from './diff-files.js';
import { mapLimit, readSide, type SideText } from './read-side.js';
import { mergeBase, type RepoOptions, resolveBase, resolveRepo, resolveTarget } from './repo.js';
import { declarationsOf, diffDeclarations } from './symbol-diff.js';
import type { BranchComparison, FileChange, SymbolChange, SymbolCounts } from './types.js';

/** Defaults and ceilings of compareBranches' bounds. */
export const COMPARE_LIMITS = {
  files: { default: 500, max: 5000 },
  symbols: { default: 1000, max: 20_000 },
  parsedFiles: { default: 200, max: 2000 },
  fileBytes: { default: 1024 * 1024, max: 16 * 1024 * 1024 },
} as const;

export interface CompareOptions extends RepoOptions {
  repoPath: string;
  /** Default: the repository's default branch (origin/HEAD, else main, else master). */
  baseBranch?: string;
  /** Default: HEAD. */
  targetBranch?: string;
  /** Files listed at most (`limit`). */
  limit?: number;
  /** Symbol changes listed at most. */
  maxSymbols?: number;
  /** Changed files whose declarations are compared at most. */
  maxParsedFiles?: number;
  /** A side larger than this is not parsed (`too_large`). */
  maxFileBytes?: number;
}

/** compareBranches' answer plus what impact analysis needs and the result leaves out. */
export interface DetailedComparison {
  comparison: BranchComparison;
  /** Every symbol change found (the result lists at most `maxSymbols`). */
  allSymbols: SymbolChange[];
  /** sha256 of each parsed file's target-side content; null when the target removed it. */
  targetHashes: Map<string, string | null>;
}

function bound(value: number | undefined, field: string, limits: { default: number; max: number }) {
  if (value === undefined) return limits.default;
  if (!Number.isInteger(value) || value < 1 || value > limits.max) {
    throw new InvalidInputError(`${field} must be an integer from 1 to ${limits.max}`, field);
  }
  return value;
}

interface Sides {
  base: (path: string) => SideText;
  target: (path: string) => SideText;
}

interface FileOutcome {
  file: FileChange;
  changes: SymbolChange[];
  targetHash?: string | null;
}

async function compareFile(entry: DiffEntry, sides: Sides, parse: boolean): Promise<FileOutcome> {
  const language = languageOf(entry.path);
  const file: FileChange = { ...entry, language, symbolDiff: 'parsed', symbols: null };
  const skip = (state: FileChange['symbolDiff']): FileOutcome => ({
    file: { ...file, symbolDiff: state },
    changes: [],
  });
  if (entry.binary) return skip('binary');
  if (language === null) return skip('no_grammar');
  if (!parse) return skip('file_limit');
  const basePath = entry.status === 'added' ? null : (entry.previousPath ?? entry.path);
  const targetPath = entry.status === 'removed' ? null : entry.path;
  const before = basePath === null ? { text: '', sha256: '' } : sides.base(basePath);
  const after = targetPath === null ? { text: '', sha256: '' } : sides.target(targetPath);
  if ('skip' in before) return skip(before.skip);
  if ('skip' in after) return skip(after.skip);
  const chunk = async (path: string | null, text: string) =>
    path === null ? new Map() : declarationsOf((await chunkFile({ path, language, text })).chunks);
  const diff = diffDeclarations(
    await chunk(basePath, before.text),
    await chunk(targetPath, after.text),
    { base: basePath, target: targetPath },
  );
  return {
    file: { ...file, symbols: diff.counts },
    changes: diff.changes,
    targetHash: targetPath === null ? null : after.sha256,
  };
}

function sumCounts(files: readonly FileChange[], changes: readonly SymbolChange[]) {
  const totals: SymbolCounts & { signatureChanged: number } = {
    added: 0,
    removed: 0,
    changed: 0,
    unchanged: 0,
    signatureChanged: changes.filter((c) => c.signatureChanged).length,
  };
  for (const f of files) {
    if (f.symbols === null) continue;
    totals.added += f.symbols.added;
    totals.removed += f.symbols.removed;
    totals.changed += f.symbols.changed;
    totals.unchanged += f.symbols.unchanged;
  }
  return totals;
}

/** Reads both sides of the files chosen for a symbol diff (one cat-file batch per side). */
async function readSides(
  repo: string,
  from: string,
  to: string,
  chosen: readonly DiffEntry[],
  maxBytes: number,
): Promise<Sides> {
  const basePaths = chosen.filter((e) => e.status !== 'added').map((e) => e.previousPath ?? e.path);
  const targetPaths = chosen.filter((e) => e.status !== 'removed').map((e) => e.path);
  const [base, target] = await Promise.all([
    readSide(repo, from, basePaths, maxBytes),
    readSide(repo, to, targetPaths, maxBytes),
  ]);
  return { base, target };
}

function bounds(options: CompareOptions) {
  return {
    limit: bound(options.limit, 'limit', COMPARE_LIMITS.files),
    maxSymbols: bound(options.maxSymbols, 'maxSymbols', COMPARE_LIMITS.symbols),
    maxParsed: bound(options.maxParsedFiles, 'maxParsedFiles', COMPARE_LIMITS.parsedFiles),
    maxBytes: bound(options.maxFileBytes, 'maxFileBytes', COMPARE_LIMITS.fileBytes),
  };
}

/** compareBranches with the full symbol list and target hashes kept (for analyzeImpact). */
export async function compareDetailed(options: CompareOptions): Promise<DetailedComparison> {
  const { limit, maxSymbols, maxParsed, maxBytes } = bounds(options);
  const repo = await resolveRepo(options.repoPath, options);
  const base = await resolveBase(repo, options.baseBranch);
  const target = await resolveTarget(repo, options.targetBranch);
  const fork = await mergeBase(repo, base.commit, target.commit);
  const from = fork ?? base.commit;
  const listing = await listChangedFiles(repo, from, target.commit, limit);
  const parseable = listing.entries.filter((e) => !e.binary && languageOf(e.path) !== null);
  const parsed = new Set(parseable.slice(0, maxParsed));
  const sides = await readSides(repo, from, target.commit, [...parsed], maxBytes);
  const outcomes = await mapLimit(listing.entries, 4, (e) => compareFile(e, sides, parsed.has(e)));
  const files = outcomes.map((o) => o.file);
  const allSymbols = outcomes.flatMap((o) => o.changes);
  const targetHashes = new Map<string, string | null>();
  for (const o of outcomes) {
    if (o.targetHash !== undefined) targetHashes.set(o.file.path, o.targetHash);
  }
  const comparison: BranchComparison = {
    repoPath: repo,
    base,
    target,
    from,
    comparison: fork === null ? 'direct' : 'merge-base',
    totals: listing.totals,
    files,
    symbols: allSymbols.slice(0, maxSymbols),
    symbolTotals: sumCounts(files, allSymbols),
    truncated: {
      files: listing.truncated,
      parsed: files.some((f) => f.symbolDiff === 'file_limit'),
      symbols: allSymbols.length > maxSymbols,
    },
  };
  return { comparison, allSymbols, targetHashes };
}

/**
 * Compares two refs of a repository: the files the target changes since its merge base with
 * the base (added / removed / modified / renamed, line counts, binary flagged) and the
 * declarations added, removed and changed. Refs default to the repository's default branch
 * (base) and HEAD (target).
 * @throws PathRefusedError / InvalidInputError (field `repo_path`) for a path outside the
 * allowed roots, missing, or not in a git work tree; InvalidInputError (`base_branch`,
 * `target_branch`) for a malformed or unknown ref; (`limit`, …) for an out-of-range bound.
 */
export async function compareBranches(options: CompareOptions): Promise<BranchComparison> {
  return (await compareDetailed(options)).comparison;
}
