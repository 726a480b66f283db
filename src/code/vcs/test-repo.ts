// Test helpers for the version-control tests: a temporary git repository with a fixed identity
// and no user or system configuration. Test-only (imported by *.test.ts), never by the module.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A scratch repository: write files, run git, remove it afterwards. */
export interface TestRepo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, content: string | Buffer): void;
  remove(path: string): void;
  /** `git add -A && git commit -m <message>`; returns the new commit. */
  commit(message: string): string;
  cleanup(): void;
}

/** Creates an empty repository on branch `main` under the OS temp folder. */
export function createTestRepo(prefix = 'cairn-vcs-'): TestRepo {
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  const repo: TestRepo = {
    dir,
    git,
    write(path, content) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    },
    remove(path) {
      unlinkSync(join(dir, path));
    },
    commit(message) {
      git('add', '-A');
      git('commit', '-qm', message);
      return git('rev-parse', 'HEAD').trim();
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return repo;
}
