// validatePath's project scope with the cross-file duplicate scan at its limits: the token
// budget (truncatedBy `duplicates`, with its hint) and a finding cap below the copies found
// (exact counts, files included, truncatedBy `shown`); and the rules file's root for a file.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { findDuplicates } from '../rules/index.js';
import { rulesRootOf } from './rules-file.js';
import { validatePath } from './validate-path.js';

let root: string;

function write(rel: string, content: string): void {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

const summer = (name: string): string =>
  [
    `export function ${name}(values: number[]) {`,
    '  let total = 0;',
    ...Array.from({ length: 8 }, (_, i) => `  total = total + values[${i}] * ${i + 2};`),
    '  return total;',
    '}',
    '',
  ].join('\n');

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-validate-project-')));
  for (const n of ['a', 'b', 'c', 'd']) write(`src/${n}.ts`, summer(n));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (limits: Record<string, number>) =>
  validatePath({ path: root, allowedRoots: [root], rules: ['duplicate-block'], limits });

describe('validatePath: cross-file duplicates at their limits', () => {
  it('every later copy is reported against the first file', async () => {
    const r = await run({});
    expect(r.findings.map((f) => f.path)).toEqual(['src/b.ts', 'src/c.ts', 'src/d.ts']);
    expect(r).toMatchObject({ truncated: false, truncatedBy: [] });
  });

  it('the token budget spent: truncated by `duplicates`, with the hint', async () => {
    const one = await findDuplicates([{ path: 'a.ts', language: 'typescript', text: summer('a') }]);
    // Two files fit whole; the third is cut and the fourth never read by the scan.
    const r = await run({ maxDuplicateTokens: 2 * one.tokens + 1 });
    expect(r.files.read).toBe(4);
    expect(r.findings.map((f) => f.path)).toEqual(['src/b.ts']);
    expect(r.truncatedBy).toEqual(['duplicates']);
    expect(r.hint).toMatch(/the cross-file duplicate scan spent its token budget/);
  });

  it('more copies than the answer holds: exact counts and files, truncated (shown)', async () => {
    const r = await run({ maxShown: 1 });
    expect(r.findings.map((f) => f.path)).toEqual(['src/b.ts']);
    expect(r.counts).toEqual({
      findings: 3,
      bySeverity: { error: 0, warning: 3, info: 0 },
      byRule: { 'duplicate-block': 3 },
      files: 3,
    });
    expect(r.truncatedBy).toEqual(['shown']);
  });
});

describe('rulesRootOf', () => {
  it('finds the nearest .cairn/ and never looks above the allowed root', async () => {
    write('.cairn/rules.toml', '');
    write('x/y/z.ts', '');
    expect(await rulesRootOf(join(root, 'x/y/z.ts'), [root])).toBe(root);
    expect(await rulesRootOf(join(root, 'x/y/z.ts'), [join(root, 'x')])).toBeNull();
    write('x/.cairn/keep', '');
    expect(await rulesRootOf(join(root, 'x/y/z.ts'), [root])).toBe(join(root, 'x'));
    expect(await rulesRootOf('/elsewhere/z.ts', [root])).toBeNull();
  });
});
