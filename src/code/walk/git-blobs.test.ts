// readBlobs on a repository built in the test: many files through one cat-file process, with
// binary content intact, missing paths and directories reported, and both bounds applied.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readBlobs } from './git-blobs.js';

let repo = '';
let commit = '';
const BINARY = Buffer.from([0, 1, 2, 10, 255, 10]);

beforeAll(() => {
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  repo = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-blobs-')));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  };
  git('init', '-q');
  write('a.txt', 'alpha\n');
  write('dir/b.txt', 'beta\nwith lines\n');
  write('bin.dat', BINARY);
  write('big.txt', 'x'.repeat(5000));
  write('empty.txt', '');
  git('add', '-A');
  git('commit', '-qm', 'c');
  commit = git('rev-parse', 'HEAD').trim();
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('readBlobs', () => {
  it('reads many files in one batch, bytes intact, and reports what it could not read', async () => {
    const batch = await readBlobs(
      repo,
      commit,
      ['a.txt', 'dir/b.txt', 'bin.dat', 'empty.txt', 'nope.txt', 'dir', 'a\nb', 'big.txt'],
      {
        maxFileBytes: 1000,
        maxTotalBytes: 1 << 20,
      },
    );
    expect(batch.blobs.get('a.txt')?.toString()).toBe('alpha\n');
    expect(batch.blobs.get('dir/b.txt')?.toString()).toBe('beta\nwith lines\n');
    expect(batch.blobs.get('bin.dat')).toEqual(BINARY);
    expect(batch.blobs.get('empty.txt')?.length).toBe(0);
    expect([...batch.missing].sort()).toEqual(['a\nb', 'dir', 'nope.txt']);
    expect([...batch.tooLarge]).toEqual(['big.txt']);
    expect(batch.truncated).toBe(false);
  });

  it('stops at the total budget and says so', async () => {
    const batch = await readBlobs(repo, commit, ['big.txt', 'a.txt', 'dir/b.txt'], {
      maxFileBytes: 10_000,
      maxTotalBytes: 100,
    });
    expect(batch.truncated).toBe(true);
    expect(batch.blobs.has('dir/b.txt')).toBe(false);
  });
});
