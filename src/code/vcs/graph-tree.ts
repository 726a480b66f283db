// The reference graph when no index exists: the tracked files at one commit, found with
// `git grep -w -F` for the names asked (so only candidate files are read), chunked in-process
// with chunkFile and cached. Bounded in files read; a bound that bites marks it truncated.
import { createHash } from 'node:crypto';

import { chunkFile } from '../chunk/index.js';
import { languageOf } from '../languages.js';
import { DEFAULT_EXCLUDED_DIRS, readBlobs, runGitCapped } from '../walk/index.js';
import { importHints, importNames } from './import-resolve.js';
import { type RepoOptions, resolveRepo, resolveSide } from './repo.js';
import type { GraphReference, ReferenceGraph } from './types.js';

/** Files the tree graph reads and chunks at most over its life. */
export const TREE_GRAPH_MAX_FILES = 1000;
const MAX_FILE_BYTES = 1024 * 1024;
/** Bytes one load reads at most (files past it are left out and the graph marked truncated). */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
const GREP_OUTPUT_BYTES = 4 * 1024 * 1024;
const WORD = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export interface TreeGraphOptions extends RepoOptions {
  maxFiles?: number;
  /** The parameter name a bad ref is reported under. Default `target_branch`. */
  field?: string;
}

interface TreeFile {
  imports: string[];
  refs: { symbol: string | null; name: string; kind: 'call' | 'reference' }[];
  sha256: string;
}

const EXCLUDED = new Set(DEFAULT_EXCLUDED_DIRS);

function indexable(path: string): boolean {
  return languageOf(path) !== null && !path.split('/').some((part) => EXCLUDED.has(part));
}

async function toTreeFile(path: string, bytes: Buffer): Promise<TreeFile> {
  const chunked = await chunkFile({
    path,
    language: languageOf(path),
    text: bytes.toString('utf8'),
  });
  const refs: TreeFile['refs'] = [];
  for (const chunk of chunked.chunks) {
    for (const name of chunk.calls) refs.push({ symbol: chunk.symbol, name, kind: 'call' });
    for (const name of chunk.references) {
      refs.push({ symbol: chunk.symbol, name, kind: 'reference' });
    }
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { imports: chunked.imports, refs, sha256 };
}

/**
 * A ReferenceGraph over what git tracks at `ref` in the repository holding `repoPath`.
 * Throws like compareBranches for a bad repo_path or ref (field `options.field`).
 */
export async function treeReferenceGraph(
  repoPath: string,
  ref: string,
  options: TreeGraphOptions = {},
): Promise<ReferenceGraph> {
  const repo = await resolveRepo(repoPath, options);
  const { commit } = await resolveSide(repo, ref, options.field ?? 'target_branch', false);
  const maxFiles = options.maxFiles ?? TREE_GRAPH_MAX_FILES;
  const files = new Map<string, TreeFile | null>();
  let truncated = false;

  const grep = async (words: readonly string[]): Promise<string[]> => {
    const asked = [...new Set(words)].filter((w) => WORD.test(w));
    const found = new Set<string>();
    for (let i = 0; i < asked.length; i += 100) {
      const patterns = asked.slice(i, i + 100).flatMap((w) => ['-e', w]);
      const args = ['grep', '-l', '-z', '-I', '-w', '-F', ...patterns, commit, '--'];
      const out = await runGitCapped(repo, args, GREP_OUTPUT_BYTES);
      if (out.truncated) truncated = true;
      for (const hit of out.stdout.toString('utf8').split('\0')) {
        const path = hit.slice(commit.length + 1);
        if (hit.startsWith(`${commit}:`) && indexable(path)) found.add(path);
      }
    }
    return [...found].sort();
  };

  const load = async (paths: readonly string[]) => {
    const wanted = [...new Set(paths)].filter((p) => !files.has(p));
    const room = Math.max(0, maxFiles - files.size);
    if (wanted.length > room) truncated = true;
    const asked = wanted.slice(0, room);
    const batch = await readBlobs(repo, commit, asked, {
      maxFileBytes: MAX_FILE_BYTES,
      maxTotalBytes: MAX_TOTAL_BYTES,
    });
    if (batch.truncated) truncated = true;
    for (const path of asked) {
      const bytes = batch.blobs.get(path);
      files.set(path, bytes === undefined ? null : await toTreeFile(path, bytes));
    }
    return paths.flatMap((p) => {
      const file = files.get(p);
      return file ? [[p, file] as const] : [];
    });
  };

  return {
    async referencesTo(names) {
      const wanted = new Set(names);
      const out: GraphReference[] = [];
      for (const [path, file] of await load(await grep(names))) {
        for (const r of file.refs) if (wanted.has(r.name)) out.push({ path, ...r });
      }
      return out;
    },
    async importersOf(paths) {
      const out: GraphReference[] = [];
      for (const [path, file] of await load(await grep(paths.flatMap(importHints)))) {
        for (const spec of file.imports) {
          if (paths.some((p) => p !== path && importNames(path, spec, p))) {
            out.push({ path, symbol: null, name: spec, kind: 'import' });
          }
        }
      }
      return out;
    },
    async importsOf(paths) {
      return new Map((await load(paths)).map(([p, f]) => [p, f.imports]));
    },
    async contentHashes(paths) {
      return new Map((await load(paths)).map(([p, f]) => [p, f.sha256]));
    },
    info() {
      return { source: 'tree', commit, truncated };
    },
  };
}
