// The dry run on a real temp directory: files, bytes, lines, languages, skipped with counts
// and samples, the time estimate, and a loud empty plan.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ESTIMATE_LINES_PER_SECOND, planIndex } from './plan.js';

const made: string[] = [];

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-plan-')));
  made.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('planIndex', () => {
  it('counts files, bytes, lines and languages, and samples what it skips', async () => {
    const plan = await planIndex({
      path: tree({
        'a.ts': 'one\ntwo\nthree\n',
        'b.py': 'x = 1\ny = 2',
        'notes.txt': 'hello\n',
        'yarn.lock': '',
        'go.sum': '',
        'node_modules/m/i.js': 'x',
      }),
      git: 'never',
    });
    expect(plan).toMatchObject({ files: 3, bytes: 14 + 11 + 6, lines: 3 + 2 + 1 });
    expect(plan.languages).toEqual({ typescript: 1, python: 1, text: 1 });
    expect(plan.skipped.total).toBe(3);
    expect(plan.skipped.byReason.lock_file).toEqual({ count: 2, sample: ['go.sum', 'yarn.lock'] });
    expect(plan.skipped.byReason.default_dir).toEqual({ count: 1, sample: ['node_modules'] });
    expect(plan.estimate.linesPerSecond).toBe(ESTIMATE_LINES_PER_SECOND);
    expect(plan.estimate.basis).toContain('an estimate');
    expect(plan.nothingToIndex).toBeNull();
  });

  it('says loudly when the plan covers nothing', async () => {
    const plan = await planIndex({ path: tree({ 'a.ts': 'x' }), ignorePatterns: ['**'] });
    expect(plan.files).toBe(0);
    expect(plan.nothingToIndex?.reason).toBe('matches_everything');
  });
});
