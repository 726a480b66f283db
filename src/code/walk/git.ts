// Runs git without a shell (argument arrays, a timeout, bounded output) and reads a work tree's
// listing: what exists unignored, by git's own rules. Never writes to a repository.
import { execFile } from 'node:child_process';

import { DomainError } from '../../shared/index.js';

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 256 * 1024 * 1024;

/** git failed (not installed, not a repository, timed out, output too large). */
export class GitCommandError extends DomainError {
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null, cause?: unknown) {
    super('git_failed', message, cause === undefined ? undefined : { cause });
    this.exitCode = exitCode;
  }
}

/** The outcome of one git command that may legitimately exit non-zero. */
export interface GitOutput {
  code: number;
  stdout: Buffer;
  stderr: string;
}

interface ExecOutcome {
  error: (Error & { code?: unknown }) | null;
  stdout: Buffer;
  stderr: string;
}

function execGitBuffer(cwd: string, args: readonly string[], maxBuffer: number) {
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  return new Promise<ExecOutcome>((done) => {
    execFile(
      'git',
      ['-c', 'core.quotepath=off', ...args],
      { cwd, env, timeout: TIMEOUT_MS, maxBuffer, encoding: 'buffer', windowsHide: true },
      (error, stdout, stderr) =>
        done({ error, stdout, stderr: stderr.toString('utf8').slice(0, 2000) }),
    );
  });
}

function exitCodeOf(outcome: ExecOutcome, args: readonly string[]): number {
  const code = outcome.error === null ? 0 : outcome.error.code;
  if (typeof code === 'number') return code;
  const message = outcome.error?.message ?? 'unknown error';
  throw new GitCommandError(`git ${args[0] ?? ''} failed: ${message}`, null, outcome.error);
}

/** Runs `git <args>` in `cwd`; resolves with its exit code (spawn failures reject). */
export async function runGitRaw(
  cwd: string,
  args: readonly string[],
  maxBuffer = MAX_OUTPUT,
): Promise<GitOutput> {
  const outcome = await execGitBuffer(cwd, args, maxBuffer);
  return { code: exitCodeOf(outcome, args), stdout: outcome.stdout, stderr: outcome.stderr };
}

/**
 * Runs `git <args>` keeping at most `maxBytes` of stdout: when git writes more, it is stopped
 * and `truncated` is true, `code` 0 (the caller parses only complete records). Other failures
 * reject (GitCommandError); a non-zero exit resolves with its code.
 */
export async function runGitCapped(
  cwd: string,
  args: readonly string[],
  maxBytes: number,
): Promise<GitOutput & { truncated: boolean }> {
  const outcome = await execGitBuffer(cwd, args, maxBytes);
  if (outcome.error?.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
    const stdout = outcome.stdout.subarray(0, maxBytes);
    return { code: 0, stdout, stderr: outcome.stderr, truncated: true };
  }
  const code = exitCodeOf(outcome, args);
  return { code, stdout: outcome.stdout, stderr: outcome.stderr, truncated: false };
}

/** Runs `git <args>` and returns stdout; a non-zero exit rejects with GitCommandError. */
export async function runGit(cwd: string, args: readonly string[], maxBuffer?: number) {
  const out = await runGitRaw(cwd, args, maxBuffer);
  if (out.code !== 0) {
    throw new GitCommandError(`git ${args[0] ?? ''} exited ${out.code}: ${out.stderr}`, out.code);
  }
  return out.stdout;
}

/** True when `dir` is inside a git work tree (and git is installed). */
export async function isGitWorkTree(dir: string): Promise<boolean> {
  try {
    const out = await runGitRaw(dir, ['rev-parse', '--is-inside-work-tree']);
    return out.code === 0 && out.stdout.toString('utf8').trim() === 'true';
  } catch {
    return false;
  }
}

/** What git says exists unignored under a directory, relative to it. */
export interface WorkTreeListing {
  /** Tracked files plus untracked files that no ignore rule excludes. */
  files: Set<string>;
  /** Every directory that holds a listed file (ancestors of `files`), '' excluded. */
  dirs: Set<string>;
  /** Untracked nested repositories git lists as `dir/`. */
  nestedRepos: Set<string>;
}

/** `git ls-files --cached --others --exclude-standard` under `dir`, as sets. */
export async function listWorkTree(dir: string): Promise<WorkTreeListing> {
  const out = await runGit(dir, ['ls-files', '--cached', '--others', '--exclude-standard', '-z']);
  const listing: WorkTreeListing = { files: new Set(), dirs: new Set(), nestedRepos: new Set() };
  for (const entry of out.toString('utf8').split('\0')) {
    if (entry === '') continue;
    if (entry.endsWith('/')) {
      listing.nestedRepos.add(entry.slice(0, -1));
      continue;
    }
    listing.files.add(entry);
    for (let i = entry.lastIndexOf('/'); i > 0; i = entry.lastIndexOf('/', i - 1)) {
      const parent = entry.slice(0, i);
      if (listing.dirs.has(parent)) break;
      listing.dirs.add(parent);
    }
  }
  return listing;
}

/**
 * Which of `paths` (relative to `dir`; directories with a trailing slash) git ignores: for a
 * watcher deciding about a new path without relisting. Paths with a newline are not asked.
 */
export async function checkIgnored(dir: string, paths: readonly string[]): Promise<Set<string>> {
  const ignored = new Set<string>();
  const asked = paths.filter((p) => p !== '' && !/[\n\0]/.test(p));
  for (let i = 0; i < asked.length; i += 200) {
    const batch = asked.slice(i, i + 200);
    const out = await runGitRaw(dir, ['check-ignore', '--', ...batch]);
    if (out.code > 1) throw new GitCommandError(`git check-ignore failed: ${out.stderr}`, out.code);
    for (const p of out.stdout.toString('utf8').split('\n')) if (p !== '') ignored.add(p);
  }
  return ignored;
}
