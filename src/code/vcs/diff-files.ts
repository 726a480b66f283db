// The file level of compare_branches: which files changed between two commits and by how many
// lines (git diff --name-status / --numstat -z with rename detection, and --shortstat for exact
// totals). Output is capped in bytes and in records; a cut is reported, never hidden.
import { GitCommandError, runGitCapped, runGitRaw } from '../walk/index.js';
import type { FileStatus } from './types.js';

/** Bytes of `--name-status` / `--numstat` output read at most (records past it are not listed). */
export const DIFF_OUTPUT_BYTES = 16 * 1024 * 1024;

/** One changed file as git lists it, before symbols are looked at. */
export interface DiffEntry {
  path: string;
  previousPath: string | null;
  status: FileStatus;
  similarity: number | null;
  linesAdded: number | null;
  linesRemoved: number | null;
  binary: boolean;
}

export interface DiffListing {
  entries: DiffEntry[];
  /** More files changed than `entries` holds (record limit or byte cap). */
  truncated: boolean;
  totals: { files: number; linesAdded: number; linesRemoved: number };
}

const DIFF_FLAGS = ['-z', '--find-renames', '--no-ext-diff', '--no-textconv', '--no-color'];

const STATUS: Record<string, FileStatus> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  T: 'modified',
  R: 'renamed',
};

interface NumstatLine {
  added: number | null;
  removed: number | null;
}

function splitRecords(out: Buffer, truncated: boolean): string[] {
  const parts = out.toString('utf8').split('\0');
  // The last piece follows the final NUL: empty when complete, a partial record when cut.
  parts.pop();
  if (truncated) parts.pop();
  return parts;
}

/** `-z --name-status`: `X\0path\0` or `R087\0old\0new\0`. */
function parseNameStatus(tokens: string[], limit: number) {
  const entries: Omit<DiffEntry, 'linesAdded' | 'linesRemoved' | 'binary'>[] = [];
  let i = 0;
  let more = false;
  while (i < tokens.length) {
    const code = tokens[i] ?? '';
    const letter = code.charAt(0);
    const paths = letter === 'R' || letter === 'C' ? 2 : 1;
    if (i + paths >= tokens.length) break;
    if (entries.length === limit) {
      more = true;
      break;
    }
    const first = tokens[i + 1] ?? '';
    const second = paths === 2 ? (tokens[i + 2] ?? '') : null;
    i += paths + 1;
    const status = STATUS[letter] ?? (letter === 'C' ? 'added' : 'modified');
    const similarity = paths === 2 ? Number.parseInt(code.slice(1), 10) : Number.NaN;
    entries.push({
      path: second ?? first,
      previousPath: letter === 'R' ? first : null,
      status,
      similarity: Number.isFinite(similarity) ? similarity : null,
    });
  }
  return { entries, more };
}

/** `-z --numstat`: `a\td\tpath\0` or `a\td\t\0old\0new\0` (renames); `-\t-` for binary. */
function parseNumstat(tokens: string[]): Map<string, NumstatLine> {
  const byPath = new Map<string, NumstatLine>();
  const count = (s: string | undefined) => (s === undefined || s === '-' ? null : Number(s));
  for (let i = 0; i < tokens.length; i++) {
    const [added, removed, path = ''] = (tokens[i] ?? '').split('\t');
    let key = path;
    if (path === '') {
      key = tokens[i + 2] ?? '';
      i += 2;
    }
    byPath.set(key, { added: count(added), removed: count(removed) });
  }
  return byPath;
}

function parseShortstat(text: string) {
  const number = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return {
    files: number(/(\d+) files? changed/),
    linesAdded: number(/(\d+) insertions?\(\+\)/),
    linesRemoved: number(/(\d+) deletions?\(-\)/),
  };
}

async function diffOutput(repo: string, args: string[], maxBytes: number) {
  const out = await runGitCapped(repo, args, maxBytes);
  if (out.code !== 0) {
    throw new GitCommandError(`git diff exited ${out.code}: ${out.stderr}`, out.code);
  }
  return out;
}

/**
 * The files changed from commit `from` to commit `to`, at most `limit` of them (in git's path
 * order), with line counts; `totals` always cover the whole diff. Each listing reads at most
 * `maxBytes` of git's output.
 */
export async function listChangedFiles(
  repo: string,
  from: string,
  to: string,
  limit: number,
  maxBytes = DIFF_OUTPUT_BYTES,
): Promise<DiffListing> {
  const range = [from, to, '--'];
  const [names, numstat, shortstat] = await Promise.all([
    diffOutput(repo, ['diff', '--name-status', ...DIFF_FLAGS, ...range], maxBytes),
    diffOutput(repo, ['diff', '--numstat', ...DIFF_FLAGS, ...range], maxBytes),
    runGitRaw(repo, ['diff', '--shortstat', '--find-renames', '--no-ext-diff', ...range], 4096),
  ]);
  const listed = parseNameStatus(splitRecords(names.stdout, names.truncated), limit);
  const lines = parseNumstat(splitRecords(numstat.stdout, numstat.truncated));
  const entries = listed.entries.map((entry): DiffEntry => {
    const count = lines.get(entry.path);
    // A missing count (numstat cut by the byte cap) is unknown (null), not binary.
    const binary = count !== undefined && count.added === null;
    return {
      ...entry,
      linesAdded: count?.added ?? null,
      linesRemoved: count?.removed ?? null,
      binary,
    };
  });
  const totals = parseShortstat(shortstat.stdout.toString('utf8'));
  const truncated = listed.more || names.truncated || entries.length < totals.files;
  return { entries, truncated, totals };
}
