// Reads many files at one commit with a single `git cat-file --batch` process (requests on
// stdin, sized records on stdout) instead of one `git show` per file. Bounded per file and in
// total; a path with a newline cannot be asked and is reported missing. Never writes.
import { spawn } from 'node:child_process';

import { GitCommandError } from './git.js';

const TIMEOUT_MS = 30_000;

export interface BlobBatch {
  /** Contents of the files read. */
  blobs: Map<string, Buffer>;
  /** Files larger than `maxFileBytes` (not kept). */
  tooLarge: Set<string>;
  /** Paths the commit does not have as a blob (or that could not be asked). */
  missing: Set<string>;
  /** `maxTotalBytes` was reached: files after that point were not read. */
  truncated: boolean;
}

export interface BlobLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

/** Parses cat-file --batch output as it arrives, in request order. */
class BatchParser {
  private pending: Buffer = Buffer.alloc(0);
  private body: { path: string; left: number; parts: Buffer[] | null } | null = null;
  private index = 0;
  total = 0;

  constructor(
    private readonly paths: readonly string[],
    private readonly limits: BlobLimits,
    private readonly out: BlobBatch,
  ) {}

  /** Feeds bytes; false once the total budget is spent. */
  push(chunk: Buffer): boolean {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.body !== null) {
        data = this.takeBody(data);
        if (this.total > this.limits.maxTotalBytes) return false;
        continue;
      }
      const nl = data.indexOf(10);
      if (nl < 0) {
        this.pending = data;
        break;
      }
      this.header(data.subarray(0, nl).toString('utf8'));
      data = data.subarray(nl + 1);
    }
    return true;
  }

  private header(line: string) {
    const path = this.paths[this.index++] ?? '';
    const match = /^[0-9a-f]+ (\S+) (\d+)$/.exec(line);
    if (match === null || match[1] !== 'blob') {
      this.out.missing.add(path);
      if (match !== null) this.body = { path, left: Number(match[2]) + 1, parts: null };
      return;
    }
    const size = Number(match[2]);
    const keep = size <= this.limits.maxFileBytes;
    if (!keep) this.out.tooLarge.add(path);
    this.body = { path, left: size + 1, parts: keep ? [] : null };
  }

  private takeBody(data: Buffer): Buffer {
    const body = this.body;
    if (body === null) return data;
    const n = Math.min(body.left, data.length);
    body.parts?.push(data.subarray(0, n));
    body.left -= n;
    if (body.parts !== null) this.total += n;
    if (body.left === 0) {
      // The record ends with a newline that is not content.
      if (body.parts !== null)
        this.out.blobs.set(body.path, Buffer.concat(body.parts).subarray(0, -1));
      this.body = null;
    }
    return data.subarray(n);
  }
}

/**
 * The contents of `paths` at `commit` (a full object id), read with one `git cat-file --batch`.
 * Rejects with GitCommandError when git cannot run or times out.
 */
export function readBlobs(
  repo: string,
  commit: string,
  paths: readonly string[],
  limits: BlobLimits,
): Promise<BlobBatch> {
  const out: BlobBatch = {
    blobs: new Map(),
    tooLarge: new Set(),
    missing: new Set(),
    truncated: false,
  };
  const asked = paths.filter((p) => p !== '' && !/[\n\0]/.test(p));
  for (const p of paths) if (!asked.includes(p)) out.missing.add(p);
  if (asked.length === 0) return Promise.resolve(out);
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  const child = spawn('git', ['-c', 'core.quotepath=off', 'cat-file', '--batch'], {
    cwd: repo,
    env,
    timeout: TIMEOUT_MS,
    windowsHide: true,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const parser = new BatchParser(asked, limits, out);
  return new Promise((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (!out.truncated && !parser.push(chunk)) {
        out.truncated = true;
        child.kill();
      }
    });
    child.on('error', (error) =>
      fail(new GitCommandError(`git cat-file failed: ${error.message}`, null, error)),
    );
    child.on('close', (code, signal) => {
      if (out.truncated) return done(out);
      if (code !== 0)
        return fail(new GitCommandError(`git cat-file exited ${code ?? signal}`, code));
      done(out);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(asked.map((p) => `${commit}:${p}\n`).join(''));
  });
}
