// Walks a directory into the files to index and the entries skipped with their reasons,
// honouring every index-family parameter. Reads directory entries, ignore files and the first
// bytes of candidates (to sniff binaries); never whole files, never follows a loop.
import { type Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { InvalidInputError } from '../../shared/index.js';
import { languageOf } from '../languages.js';
import { sniffFile } from './classify.js';
import { isGitWorkTree, listWorkTree, type WorkTreeListing } from './git.js';
import { IgnoreStack } from './gitignore.js';
import { allowedRootsOf, isWithin, resolveWalkRoot } from './roots.js';
import { compileRules, type WalkRules } from './rules.js';
import type { SkippedEntry, SkipReason, WalkOptions, WalkResult } from './types.js';

/** Default `maxFiles`. */
export const DEFAULT_MAX_FILES = 200_000;
const SKIPPED_KEPT = 10_000;

type Verdict = { reason: SkipReason; detail?: string } | null;

interface Ctx {
  rules: WalkRules;
  follow: boolean;
  allowedRoots: string[];
  git: WorkTreeListing | null;
  maxFiles: number;
  options: WalkOptions;
  result: WalkResult;
  visitedDirs: Set<string>;
  visitedFiles: Set<string>;
}

interface Frame {
  abs: string;
  rel: string;
  /** Reached through a followed symlink: git's listing does not cover it. */
  viaLink: boolean;
  /** dev:ino of every directory from the root down to this one (loop detection). */
  ancestors: ReadonlySet<string>;
  ignores: IgnoreStack;
}

interface Entry {
  abs: string;
  rel: string;
  name: string;
  st: Stats;
  isLink: boolean;
}

function skip(ctx: Ctx, entry: SkippedEntry): void {
  const { result } = ctx;
  result.skippedByReason[entry.reason] = (result.skippedByReason[entry.reason] ?? 0) + 1;
  if (result.skipped.length < SKIPPED_KEPT) result.skipped.push(entry);
  ctx.options.onSkip?.(entry);
}

function skipWith(ctx: Ctx, rel: string, kind: 'file' | 'dir', verdict: NonNullable<Verdict>) {
  skip(ctx, { path: rel, kind, ...verdict });
}

/** What git (in a work tree, outside followed links) or the .gitignore stack says. */
function ignoreVerdict(
  ctx: Ctx,
  frame: Frame,
  rel: string,
  kind: 'file' | 'dir' | 'link',
): Verdict {
  const git = ctx.git;
  if (git === null || frame.viaLink) {
    return frame.ignores.ignores(rel, kind === 'dir') ? { reason: 'gitignore' } : null;
  }
  if (kind !== 'dir') return git.files.has(rel) ? null : { reason: 'gitignore' };
  if (git.nestedRepos.has(rel)) return { reason: 'nested_repository' };
  if (git.files.has(rel)) return { reason: 'submodule' };
  return git.dirs.has(rel) ? null : { reason: 'gitignore', detail: 'git lists no file in it' };
}

/** The target's stats when a symlink is to be followed; otherwise records why not. */
async function followLink(ctx: Ctx, abs: string, rel: string): Promise<Stats | null> {
  if (!ctx.follow) {
    skip(ctx, { path: rel, kind: 'file', reason: 'symlink', detail: 'follow_symlinks is false' });
    return null;
  }
  let real: string;
  try {
    real = await realpath(abs);
  } catch (error) {
    const loop = (error as NodeJS.ErrnoException).code === 'ELOOP';
    skip(ctx, { path: rel, kind: 'file', reason: loop ? 'symlink_loop' : 'symlink_broken' });
    return null;
  }
  if (!ctx.allowedRoots.some((r) => isWithin(real, r))) {
    skip(ctx, { path: rel, kind: 'file', reason: 'symlink_outside_allowed_roots', detail: real });
    return null;
  }
  return stat(abs);
}

async function visitDir(ctx: Ctx, frame: Frame, e: Entry): Promise<void> {
  const verdict = ctx.rules.dirReason(e.rel, e.name) ?? ignoreVerdict(ctx, frame, e.rel, 'dir');
  if (verdict !== null) return skipWith(ctx, e.rel, 'dir', verdict);
  const key = `${e.st.dev}:${e.st.ino}`;
  if (frame.ancestors.has(key)) {
    const detail = `links back to ${await realpath(e.abs)}`;
    return skipWith(ctx, e.rel, 'dir', { reason: 'symlink_loop', detail });
  }
  if (ctx.visitedDirs.has(key)) return skipWith(ctx, e.rel, 'dir', { reason: 'duplicate' });
  ctx.visitedDirs.add(key);
  const ancestors = new Set(frame.ancestors).add(key);
  const viaLink = frame.viaLink || e.isLink;
  await walkDir(ctx, { abs: e.abs, rel: e.rel, viaLink, ancestors, ignores: frame.ignores });
}

async function visitFile(ctx: Ctx, frame: Frame, e: Entry): Promise<void> {
  const verdict =
    (e.isLink ? null : ignoreVerdict(ctx, frame, e.rel, 'file')) ??
    ctx.rules.fileReason(e.rel, e.name, e.st.size);
  if (verdict !== null) return skipWith(ctx, e.rel, 'file', verdict);
  if (ctx.follow) {
    const key = `${e.st.dev}:${e.st.ino}`;
    if (ctx.visitedFiles.has(key)) return skipWith(ctx, e.rel, 'file', { reason: 'duplicate' });
    ctx.visitedFiles.add(key);
  }
  let sniffed: SkipReason | null;
  try {
    sniffed = await sniffFile(e.abs, e.name);
  } catch {
    sniffed = 'unreadable';
  }
  if (sniffed !== null) return skipWith(ctx, e.rel, 'file', { reason: sniffed });
  const file = {
    path: e.rel,
    absPath: e.abs,
    size: e.st.size,
    mtimeMs: e.st.mtimeMs,
    language: languageOf(e.name),
  };
  ctx.result.files.push(file);
  ctx.options.onFile?.(file);
  if (ctx.result.files.length >= ctx.maxFiles) ctx.result.truncated = true;
}

async function visit(ctx: Ctx, frame: Frame, name: string): Promise<void> {
  const rel = frame.rel === '' ? name : `${frame.rel}/${name}`;
  const abs = join(frame.abs, name);
  let st: Stats;
  try {
    st = await lstat(abs);
  } catch {
    return skip(ctx, { path: rel, kind: 'file', reason: 'unreadable' });
  }
  const isLink = st.isSymbolicLink();
  if (isLink) {
    const gate = ignoreVerdict(ctx, frame, rel, 'link');
    if (gate !== null) return skipWith(ctx, rel, 'file', gate);
    const target = await followLink(ctx, abs, rel);
    if (target === null) return;
    st = target;
  }
  const entry = { abs, rel, name, st, isLink };
  if (st.isDirectory()) return visitDir(ctx, frame, entry);
  if (st.isFile()) return visitFile(ctx, frame, entry);
  skip(ctx, { path: rel, kind: 'file', reason: 'not_regular' });
}

async function walkDir(ctx: Ctx, frame: Frame): Promise<void> {
  ctx.options.signal?.throwIfAborted();
  let names: string[];
  try {
    names = (await readdir(frame.abs)).sort();
  } catch {
    return skip(ctx, { path: frame.rel || '.', kind: 'dir', reason: 'unreadable' });
  }
  if (names.length === 0 && frame.rel !== '') {
    return skip(ctx, { path: frame.rel, kind: 'dir', reason: 'empty_dir' });
  }
  const inner = { ...frame, ignores: await frame.ignores.enter(frame.abs, frame.rel) };
  for (const name of names) {
    if (ctx.result.truncated) return;
    await visit(ctx, inner, name);
  }
}

function nothingMessage(result: WalkResult): string {
  const reasons = Object.entries(result.skippedByReason)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `${reason}: ${n}`);
  const why =
    reasons.length === 0 ? 'the directory holds no files' : `skipped ${reasons.join(', ')}`;
  return `no file to index under ${result.root} (${why})`;
}

/**
 * Walks `options.path` and collects the files to index (in a stable, sorted order) and what was
 * skipped, with reasons. `onFile`/`onSkip` stream both as they are found. Inside a git work
 * tree, git's listing (`ls-files --cached --others --exclude-standard`) decides which files
 * exist unignored; elsewhere the nested .gitignore files and `.git/info/exclude` do. A result
 * with zero files carries `nothingToIndex` saying why. Throws PathRefusedError (field `path`)
 * and InvalidInputError naming the malformed parameter.
 */
export async function walkRepository(options: WalkOptions): Promise<WalkResult> {
  const rules = compileRules(options);
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  if (!Number.isSafeInteger(maxFiles) || maxFiles < 1) {
    throw new InvalidInputError('maxFiles must be a positive integer', 'max_files');
  }
  const allowedRoots = allowedRootsOf(options.allowedRoots);
  const root = await resolveWalkRoot(options.path, allowedRoots, options.cwd);
  const useGit = options.git !== 'never' && (await isGitWorkTree(root));
  const result: WalkResult = {
    root,
    mode: useGit ? 'git' : 'filesystem',
    files: [],
    skipped: [],
    skippedByReason: {},
    nothingToIndex: null,
    truncated: false,
  };
  if (rules.matchesEverything !== null) {
    result.nothingToIndex = { reason: 'matches_everything', message: rules.matchesEverything };
    return result;
  }
  const rootStat = await stat(root);
  const key = `${rootStat.dev}:${rootStat.ino}`;
  const ctx: Ctx = {
    rules,
    follow: options.followSymlinks === true,
    allowedRoots,
    git: useGit ? await listWorkTree(root) : null,
    maxFiles,
    options,
    result,
    visitedDirs: new Set([key]),
    visitedFiles: new Set(),
  };
  const ignores = await IgnoreStack.forRoot(root);
  await walkDir(ctx, { abs: root, rel: '', viaLink: false, ancestors: new Set([key]), ignores });
  if (result.files.length === 0) {
    result.nothingToIndex = { reason: 'no_files', message: nothingMessage(result) };
  }
  return result;
}
