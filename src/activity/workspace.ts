// Workspace discovery for provenance: detectors tried in priority order (git today; the spec's
// Mercurial, SVN, … slots take the same shape), then the canonical working directory. Runs git
// through an injected runner (argument arrays, never a shell); never throws for a missing VCS.
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';

/** Runs `git <args>` in `cwd`; stdout on exit 0, undefined on any failure (missing git, timeout). */
export type GitRunner = (args: readonly string[], cwd: string) => Promise<string | undefined>;

/** The workspace fields a detector resolves. */
export interface Workspace {
  repo_path: string;
  worktree_id: string;
  /** The raw origin URL, when the VCS has one. */
  origin?: string;
  /** Where the fields came from (`git`, `cwd`). */
  source: string;
}

/** One VCS detector: the workspace containing `cwd`, or undefined when this VCS has none. */
export type WorkspaceDetector = (cwd: string, git: GitRunner) => Promise<Workspace | undefined>;

const GIT_TIMEOUT_MS = 5_000;
const GIT_MAX_BYTES = 64 * 1024;

/** The default runner: `execFile('git', args)` with a 5 s timeout and 64 KiB of output. */
export const execGit: GitRunner = (args, cwd) =>
  new Promise((done) => {
    execFile(
      'git',
      [...args],
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BYTES, windowsHide: true },
      (err, stdout) => done(err ? undefined : stdout),
    );
  });

/**
 * Git: top level, git dir and common dir in one call. A linked worktree (git dir under
 * `<common>/worktrees/<name>`) is identified by its name; the main worktree is "main".
 */
export const gitWorkspace: WorkspaceDetector = async (cwd, git) => {
  const out = await git(
    ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'],
    cwd,
  );
  const [top, gitDir, commonDir] = (out ?? '').split('\n').map((line) => line.trim());
  if (!top || !gitDir || !commonDir) return undefined;
  const linked = resolve(gitDir) !== resolve(commonDir);
  const origin = (await git(['config', '--get', 'remote.origin.url'], top))?.trim();
  const workspace: Workspace = {
    repo_path: top,
    worktree_id: linked ? basename(gitDir) : 'main',
    source: 'git',
  };
  if (origin) workspace.origin = origin;
  return workspace;
};

/** The detectors tried before the filesystem, in priority order. */
export const WORKSPACE_DETECTORS: readonly WorkspaceDetector[] = [gitWorkspace];

/** `cwd` with symlinks resolved; the absolute path as given when it cannot be resolved. */
export async function canonicalDir(cwd: string): Promise<string> {
  try {
    return await realpath(cwd);
  } catch {
    return resolve(cwd);
  }
}

/**
 * The first detector's workspace, else the filesystem: the canonical working directory as
 * both repo_path and worktree_id (the spec's last step), with no origin.
 */
export async function discoverWorkspace(
  cwd: string,
  git: GitRunner,
  detectors: readonly WorkspaceDetector[] = WORKSPACE_DETECTORS,
): Promise<Workspace> {
  const dir = await canonicalDir(cwd);
  for (const detect of detectors) {
    const found = await detect(dir, git);
    if (found) return found;
  }
  return { repo_path: dir, worktree_id: dir, source: 'cwd' };
}
