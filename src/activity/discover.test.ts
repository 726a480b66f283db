import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { discoverProvenance, type DiscoveryInputs } from './discover.js';
import { originIdentity } from './origin.js';
import { execGit, type GitRunner } from './workspace.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-prov-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Runs git for test setup (never through a shell). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A fresh repository with one commit, optionally with an origin. */
function repo(name: string, origin?: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'first');
  if (origin !== undefined) git(dir, 'remote', 'add', 'origin', origin);
  return dir;
}

const CLOCK = (): number => 1_767_225_600_123; // 2026-01-01T00:00:00.123Z
const BASE_ENV = { USER: 'ada', OPENAI_MODEL: 'gpt-5' };

function inputs(cwd: string, over: Partial<DiscoveryInputs> = {}): DiscoveryInputs {
  return { env: BASE_ENV, cwd, hostname: 'box1', pid: 4242, clock: CLOCK, ...over };
}

describe('discoverProvenance: workspace', () => {
  it('takes repo_path from git (a subfolder resolves to the top level), worktree "main"', async () => {
    const dir = repo('plain', 'git@github.com:Owner/Repo.git');
    mkdirSync(join(dir, 'src'));
    const { provenance: p, sources } = await discoverProvenance(inputs(join(dir, 'src')));
    expect(p.repo_path).toBe(dir);
    expect(p.worktree_id).toBe('main');
    expect(p.repo_id).toBe(originIdentity('https://github.com/owner/repo')?.repo_id);
    expect(p.project_id).toBe('Owner/Repo');
    expect(sources).toMatchObject({ repo_path: 'git', repo_id: 'origin', project_id: 'origin' });
  });

  it('gives ssh and https clones of one repository the same repo_id', async () => {
    const a = await discoverProvenance(inputs(repo('a', 'git@github.com:owner/repo.git')));
    const b = await discoverProvenance(inputs(repo('b', 'https://github.com/owner/repo')));
    expect(a.provenance.repo_id).toBeDefined();
    expect(a.provenance.repo_id).toBe(b.provenance.repo_id);
  });

  it('leaves repo_id and project_id absent for a repository without origin', async () => {
    const { provenance: p, sources } = await discoverProvenance(inputs(repo('local')));
    expect(p.repo_path).toBe(join(root, 'local'));
    expect(p).not.toHaveProperty('repo_id');
    expect(p).not.toHaveProperty('project_id');
    expect(sources.repo_id).toBeUndefined();
  });

  it('records an origin that is not a clone URL as rejected, not as an id', async () => {
    const found = await discoverProvenance(inputs(repo('odd', 'not a url')));
    expect(found.provenance).not.toHaveProperty('repo_id');
    expect(found.rejected).toEqual([
      { field: 'repo_id', source: 'origin', reason: 'not a clone URL' },
    ]);
  });

  it('names a linked worktree by its name, with its own top level', async () => {
    const main = repo('main', 'git@github.com:owner/repo.git');
    const linked = join(root, 'feature-wt');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', linked);
    const { provenance: p } = await discoverProvenance(inputs(linked));
    expect(p.repo_path).toBe(linked);
    expect(p.worktree_id).toBe('feature-wt');
    const fromMain = await discoverProvenance(inputs(main));
    expect(p.repo_id).toBe(fromMain.provenance.repo_id);
    expect(fromMain.provenance.worktree_id).toBe('main');
  });

  it('falls back to the canonical working directory outside any repository', async () => {
    const dir = join(root, 'no-vcs');
    mkdirSync(dir);
    const link = join(root, 'link');
    symlinkSync(dir, link);
    const { provenance: p, sources } = await discoverProvenance(inputs(link));
    expect(p.repo_path).toBe(dir);
    expect(p.worktree_id).toBe(dir);
    expect(p).not.toHaveProperty('repo_id');
    expect(sources.repo_path).toBe('cwd');
  });

  it('falls back to the filesystem when git is missing or fails', async () => {
    const dir = repo('nogit', 'git@github.com:owner/repo.git');
    const broken: GitRunner = () => Promise.resolve(undefined);
    const { provenance: p } = await discoverProvenance(inputs(dir, { git: broken }));
    expect(p.repo_path).toBe(dir);
    expect(p.worktree_id).toBe(dir);
    expect(p).not.toHaveProperty('repo_id');
  });

  it('runs git through the default runner, which reports failure as undefined', async () => {
    const dir = join(root, 'x');
    mkdirSync(dir);
    expect(await execGit(['rev-parse', '--show-toplevel'], dir)).toBeUndefined();
    expect(await execGit(['--version'], dir)).toMatch(/^git version/);
  });
});

describe('discoverProvenance: environment', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(root, 'env');
    mkdirSync(dir);
  });

  it('takes session_id from CURSOR_TRACE_ID, then CLAUDE_SESSION_ID', async () => {
    const env = { ...BASE_ENV, CURSOR_TRACE_ID: 'cur-1', CLAUDE_SESSION_ID: 'cl-1' };
    const both = await discoverProvenance(inputs(dir, { env }));
    expect(both.provenance.session_id).toBe('cur-1');
    expect(both.sources.session_id).toBe('env:CURSOR_TRACE_ID');
    const claude = await discoverProvenance(
      inputs(dir, { env: { ...BASE_ENV, CLAUDE_SESSION_ID: 'cl-1', CURSOR_TRACE_ID: ' ' } }),
    );
    expect(claude.provenance.session_id).toBe('cl-1');
  });

  it('generates <agent>-<host>-<pid>-<timestamp> without an IDE session', async () => {
    const { provenance: p, sources } = await discoverProvenance(inputs(dir));
    expect(p.session_id).toBe('cairn-stdio-box1-4242-1767225600');
    expect(sources.session_id).toBe('generated');
    expect(p.timestamp).toBe(1_767_225_600);
    expect(p.delegated).toBe(false);
  });

  it('takes model_id from the first vendor variable set, then CAIRN_MODEL_ID', async () => {
    const env = { USER: 'ada', MISTRAL_MODEL: 'm-large', ANTHROPIC_MODEL: 'claude-x' };
    const first = await discoverProvenance(inputs(dir, { env }));
    expect(first.provenance.model_id).toBe('claude-x');
    expect(first.sources.model_id).toBe('env:ANTHROPIC_MODEL');
    const own = await discoverProvenance(inputs(dir, { env: { CAIRN_MODEL_ID: 'local-7b' } }));
    expect(own.provenance.model_id).toBe('local-7b');
    const none = await discoverProvenance(inputs(dir, { env: { USER: 'ada', OPENAI_MODEL: '' } }));
    expect(none.provenance).not.toHaveProperty('model_id');
  });

  it('takes operator_id from $USER only, machine_id from the host name, then $HOSTNAME', async () => {
    const env = { HOSTNAME: 'env-host', LOGNAME: 'bob' };
    const { provenance: p } = await discoverProvenance(inputs(dir, { env, hostname: '' }));
    expect(p).not.toHaveProperty('operator_id');
    expect(p.machine_id).toBe('env-host');
    const neither = await discoverProvenance(inputs(dir, { env: {}, hostname: '' }));
    expect(neither.provenance).not.toHaveProperty('machine_id');
    expect(neither.provenance.session_id).toBe('cairn-stdio-4242-1767225600');
  });

  it('takes agent_program from the client name, then the IDE, else cairn-stdio', async () => {
    const env = { ...BASE_ENV, CLAUDECODE: '1' };
    const client = await discoverProvenance(inputs(dir, { env, clientName: 'Claude Code' }));
    expect(client.provenance.agent_program).toBe('Claude Code');
    expect(client.provenance.session_id).toBe('Claude_Code-box1-4242-1767225600');
    const ide = await discoverProvenance(inputs(dir, { env }));
    expect(ide.provenance.agent_program).toBe('claude-code');
    const vscode = await discoverProvenance(inputs(dir, { env: { TERM_PROGRAM: 'vscode' } }));
    expect(vscode.provenance.agent_program).toBe('vscode');
    const none = await discoverProvenance(inputs(dir));
    expect(none.provenance.agent_program).toBe('cairn-stdio');
    expect(none.sources.agent_program).toBe('default');
  });

  it('skips and records hostile environment values instead of using them', async () => {
    const env = {
      USER: 'ada\nroot',
      CURSOR_TRACE_ID: 'x'.repeat(10_000),
      OPENAI_MODEL: 'gpt\u0000',
      CAIRN_MODEL_ID: 'fine-model',
    };
    const found = await discoverProvenance(inputs(dir, { env }));
    expect(found.provenance).not.toHaveProperty('operator_id');
    expect(found.provenance.model_id).toBe('fine-model');
    expect(found.provenance.session_id).toBe('cursor-box1-4242-1767225600');
    expect(found.rejected.map((r) => `${r.field} ${r.source}`).sort()).toEqual([
      'model_id env:OPENAI_MODEL',
      'operator_id env:USER',
      'session_id env:CURSOR_TRACE_ID',
    ]);
  });
});
