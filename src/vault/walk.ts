// The bounded walk of a vault's content root: files matching the pattern, with size and mtime,
// following symlinks only to allowed places (restricted rules after realpath) and never into a
// directory already on the walk (loop safe). Bounded in files, entries, depth and file size;
// skips dot entries and node_modules. Reports what it skipped and whether it stopped early.
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { restrictedRule } from './restricted.js';

export interface WalkLimits {
  /** Matching files to take at most; more → `truncated` (default 50,000). */
  maxFiles: number;
  /** Directory entries to look at at most (default 500,000). */
  maxEntries: number;
  /** Directory depth below the root (default 32). */
  maxDepth: number;
  /** Larger files are skipped (default 2 MiB). */
  maxFileBytes: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = {
  maxFiles: 50_000,
  maxEntries: 500_000,
  maxDepth: 32,
  maxFileBytes: 2 * 1024 * 1024,
};

export interface WalkedFile {
  /** Relative to the root, '/'-separated. */
  path: string;
  /** Where it really is (symlinks resolved). */
  real: string;
  size: number;
  mtime: number;
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: Skipped[];
  /** A limit stopped the walk: files beyond it were not seen. */
  truncated: boolean;
}

interface State {
  out: WalkResult;
  entries: number;
  limits: WalkLimits;
  match: (path: string) => boolean;
}

async function resolveEntry(abs: string, ent: Dirent) {
  if (!ent.isSymbolicLink()) return { real: abs, dir: ent.isDirectory(), file: ent.isFile() };
  try {
    const real = await realpath(abs);
    const s = await stat(real);
    return { real, dir: s.isDirectory(), file: s.isFile() };
  } catch {
    return undefined;
  }
}

async function visit(s: State, dir: string, rel: string, depth: number, onPath: Set<string>) {
  const list = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (list === undefined) {
    s.out.skipped.push({ path: rel || '.', reason: 'unreadable directory' });
    return;
  }
  list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const ent of list) {
    if (s.out.truncated) return;
    if ((s.entries += 1) > s.limits.maxEntries) {
      s.out.truncated = true;
      return;
    }
    if (ent.name.startsWith('.') || ent.name === 'node_modules') continue;
    const path = rel === '' ? ent.name : `${rel}/${ent.name}`;
    const r = await resolveEntry(join(dir, ent.name), ent);
    if (r === undefined) {
      s.out.skipped.push({ path, reason: 'broken symlink' });
      continue;
    }
    const rule = restrictedRule(r.real);
    if (r.dir) {
      if (rule !== undefined) s.out.skipped.push({ path, reason: `restricted path (${rule})` });
      else if (onPath.has(r.real)) s.out.skipped.push({ path, reason: 'symlink loop' });
      else if (depth + 1 > s.limits.maxDepth) s.out.skipped.push({ path, reason: 'too deep' });
      else {
        onPath.add(r.real);
        await visit(s, r.real, path, depth + 1, onPath);
        onPath.delete(r.real);
      }
    } else if (r.file && s.match(path)) await take(s, path, r.real, rule);
  }
}

async function take(s: State, path: string, real: string, rule: string | undefined) {
  if (rule !== undefined) {
    s.out.skipped.push({ path, reason: `restricted path (${rule})` });
    return;
  }
  const st = await stat(real).catch(() => undefined);
  if (st === undefined) s.out.skipped.push({ path, reason: 'unreadable file' });
  else if (st.size > s.limits.maxFileBytes)
    s.out.skipped.push({ path, reason: `too large (${st.size} bytes > ${s.limits.maxFileBytes})` });
  else if (s.out.files.length >= s.limits.maxFiles) s.out.truncated = true;
  else s.out.files.push({ path, real, size: st.size, mtime: Math.trunc(st.mtimeMs) });
}

/** Walks `root` (already resolved and allowed) for files whose relative path `match`es. */
export async function walkVault(
  root: string,
  match: (path: string) => boolean,
  limits: Partial<WalkLimits> = {},
): Promise<WalkResult> {
  const s: State = {
    out: { files: [], skipped: [], truncated: false },
    entries: 0,
    limits: { ...DEFAULT_WALK_LIMITS, ...limits },
    match,
  };
  await visit(s, root, '', 0, new Set([root]));
  return s.out;
}
