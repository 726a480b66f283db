// git_index on a real repository built in the test: ls-tree at a branch ref with sizes and the
// index family's filters, the reader at that ref, and hostile refs refused before git runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InvalidInputError, NotFoundError } from '../../shared/index.js';
import { classifyContent } from './classify.js';
import { createGitReader, listGitTree, resolveRef, validateRef } from './git-tree.js';

let repo = '';

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
}

function write(path: string, content: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-gittree-')));
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  write('src/a.ts', 'export const a = 1;\n');
  write('README.md', '# r\n');
  write('yarn.lock', '');
  write('node_modules/x/i.js', 'x');
  git('add', '-A');
  git('commit', '-qm', 'main');
  git('checkout', '-qb', 'feature');
  write('src/b.py', 'def b():\n    return 2\n');
  write('src/a.ts', 'export const a = 2; // changed\n');
  git('add', '-A');
  git('commit', '-qm', 'feature');
  git('checkout', '-q', 'main');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('listGitTree', () => {
  it('lists what git tracks at a branch, with sizes, languages and the defaults applied', async () => {
    const main = await listGitTree(repo, 'main');
    const feature = await listGitTree(repo, 'feature');
    expect(main.files.map((f) => f.path)).toEqual(['README.md', 'src/a.ts']);
    expect(feature.files.map((f) => f.path)).toEqual(['README.md', 'src/a.ts', 'src/b.py']);
    expect(feature.commit).toBe(git('rev-parse', 'feature').trim());
    const b = feature.files.find((f) => f.path === 'src/b.py');
    expect(b).toMatchObject({ size: 22, language: 'python' });
    expect(feature.skipped.map((s) => [s.path, s.reason])).toEqual([
      ['node_modules/x/i.js', 'default_dir'],
      ['yarn.lock', 'lock_file'],
    ]);
  });

  it('applies extensions and max_file_size, and resolves HEAD~1', async () => {
    const listing = await listGitTree(repo, 'feature', { extensions: ['ts'], maxFileSize: 20 });
    expect(listing.files).toEqual([]);
    expect(listing.skipped.find((s) => s.path === 'src/a.ts')?.reason).toBe('too_large');
    expect(await resolveRef(repo, 'feature~1')).toBe(git('rev-parse', 'main').trim());
  });

  it('reads a file as it is at the ref, through the reader', async () => {
    const commit = await resolveRef(repo, 'feature');
    const read = createGitReader(repo, commit);
    const text = (await read('src/a.ts')).toString('utf8');
    expect(text).toBe('export const a = 2; // changed\n');
    expect(classifyContent(await read('src/b.py'), 'b.py')).toBeNull();
    await expect(read('missing.ts')).rejects.toBeInstanceOf(NotFoundError);
    await expect(read('../etc/passwd')).rejects.toBeInstanceOf(InvalidInputError);
    expect(() => createGitReader(repo, 'main')).toThrow(InvalidInputError);
  });
});

describe('refs', () => {
  it.each(['--upload-pack=x', 'a;b', '../', 'main..feature', '$(id)', 'a b', '-', 'x@{1}', 'a/'])(
    'refuses the hostile ref %j before running git',
    async (ref) => {
      expect(() => validateRef(ref)).toThrow(InvalidInputError);
      const error = await listGitTree(repo, ref).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({ field: 'branches' });
    },
  );

  it('accepts ordinary refs and says when one does not exist', async () => {
    for (const ref of ['main', 'feature', 'release/1.2', 'HEAD', 'HEAD^', 'v1.0-rc.1']) {
      expect(validateRef(ref)).toBe(ref);
    }
    await expect(resolveRef(repo, 'no-such-branch')).rejects.toBeInstanceOf(NotFoundError);
  });
});
