// Cross-file duplication: two files sharing a block are reported once, at the later file, with
// both locations; a near miss, a within-file copy and a reordered block are not; input order
// decides which side is the copy; budgets, skips and refusals.
import { describe, expect, it } from 'vitest';

import { createDuplicateScan, findDuplicates, type SourceFile } from './project-duplicates.js';
import { MAX_VALIDATE_CHARS } from './validate.js';

const line = (i: number, op = '+') => `  total = total ${op} values[${i}] * ${i + 2};`;
const BLOCK = Array.from({ length: 8 }, (_, i) => line(i));

function ts(path: string, name: string, block: readonly string[], before = 0): SourceFile {
  const pad = Array.from({ length: before }, (_, i) => `const pad${i} = ${i};`);
  const text = [
    ...pad,
    `export function ${name}(values: number[]) {`,
    `  let total = ${before};`,
    ...block,
    '  return total;',
    '}',
    '',
  ].join('\n');
  return { path, language: 'typescript', text };
}

describe('findDuplicates', () => {
  it('reports a block two files share, at the later one, with both locations', async () => {
    const report = await findDuplicates([
      ts('src/a.ts', 'first', BLOCK),
      ts('src/b.ts', 'second', BLOCK, 3),
    ]);
    expect(report.findings).toEqual([
      {
        path: 'src/b.ts',
        line: 6,
        column: 1,
        endLine: 15,
        rule: 'duplicate-block',
        severity: 'warning',
        tokens: 92,
        message: 'lines 6–15 repeat src/a.ts lines 3–12 (92 tokens)',
        duplicateOf: { path: 'src/a.ts', line: 3, endLine: 12 },
      },
    ]);
    expect(report).toMatchObject({ files: 2, skipped: [], truncated: false, omitted: 0 });
  });

  it('input order decides which side is the copy; the pair is the same', async () => {
    const [a, b] = [ts('a.ts', 'first', BLOCK), ts('b.ts', 'second', BLOCK, 3)];
    const forward = await findDuplicates([a, b]);
    const backward = await findDuplicates([b, a]);
    expect(
      backward.findings.map((f) => [f.path, f.line, f.duplicateOf.path, f.duplicateOf.line]),
    ).toEqual([['a.ts', 3, 'b.ts', 6]]);
    expect(
      forward.findings.map((f) => [f.path, f.line, f.duplicateOf.path, f.duplicateOf.line]),
    ).toEqual([['b.ts', 6, 'a.ts', 3]]);
  });

  it('a near miss (one line changed in the middle) is not reported', async () => {
    const changed = BLOCK.map((l, i) => (i === 4 ? line(4, '-') : l));
    const report = await findDuplicates([
      ts('a.ts', 'first', BLOCK),
      ts('b.ts', 'second', changed),
    ]);
    expect(report.findings).toEqual([]);
  });

  it('the same statements in another order are not a duplicate block', async () => {
    const reordered = [...BLOCK.slice(4), ...BLOCK.slice(0, 4)];
    const report = await findDuplicates([
      ts('a.ts', 'first', BLOCK),
      ts('b.ts', 'second', reordered),
    ]);
    expect(report.findings).toEqual([]);
  });

  it('copies within one file are left to validateSource', async () => {
    const one = ts('a.ts', 'first', [...BLOCK, ...BLOCK]);
    expect((await findDuplicates([one, ts('b.ts', 'other', [line(0)])])).findings).toEqual([]);
  });

  it('compares across languages with the same tokens (JS and TS)', async () => {
    const js = { ...ts('b.js', 'second', BLOCK), language: 'javascript' as const };
    const text = js.text.replace('values: number[]', 'values');
    const report = await findDuplicates([ts('a.ts', 'first', BLOCK), { ...js, text }]);
    expect(report.findings.map((f) => f.path)).toEqual(['b.js']);
  });

  it('takes an async iterable, and honours thresholds and severity', async () => {
    async function* files() {
      yield ts('a.ts', 'first', BLOCK);
      yield ts('b.ts', 'second', BLOCK);
    }
    const strict = await findDuplicates(files(), { thresholds: { duplicateTokens: 200 } });
    expect(strict.findings).toEqual([]);
    const loud = await findDuplicates(files(), { severity: 'error' });
    expect(loud.findings.map((f) => f.severity)).toEqual(['error']);
  });

  it('skips what it cannot compare and stops at the token budget', async () => {
    const big = {
      path: 'big.ts',
      language: 'typescript' as const,
      text: 'x'.repeat(MAX_VALIDATE_CHARS + 1),
    };
    const odd = { path: 'a.cob', language: 'cobol' as never, text: 'x' };
    const report = await findDuplicates([big, odd, ts('a.ts', 'first', BLOCK)]);
    expect(report.skipped.map((s) => s.path)).toEqual(['big.ts', 'a.cob']);
    expect(report.files).toBe(1);
    const cut = await findDuplicates([ts('a.ts', 'first', BLOCK), ts('b.ts', 'second', BLOCK)], {
      maxTokens: 50,
    });
    expect(cut).toMatchObject({ files: 1, tokens: 50, truncated: true, findings: [] });
  });

  it('counts findings past maxFindings as omitted', async () => {
    const files = ['a', 'b', 'c'].map((n) => ts(`${n}.ts`, n, BLOCK));
    const report = await findDuplicates(files, { maxFindings: 1 });
    expect(report.findings).toHaveLength(1);
    expect(report.omitted).toBe(1);
    expect(report.omittedIn).toEqual(['c.ts']);
  });

  it('an incremental scan answers as findDuplicates over the same files', async () => {
    const files = ['a', 'b', 'c'].map((n) => ts(`${n}.ts`, n, BLOCK));
    const scan = createDuplicateScan({ maxFindings: 1 });
    for (const file of files) await scan.add(file);
    expect(scan.report()).toEqual(await findDuplicates(files, { maxFindings: 1 }));
    const cut = createDuplicateScan({ maxTokens: 50 });
    await cut.add(files[0] as SourceFile);
    expect(cut.spent()).toBe(true);
    await cut.add(files[1] as SourceFile);
    expect(cut.report()).toMatchObject({ files: 1, truncated: true });
  });

  it('refuses bad options naming the field', async () => {
    await expect(findDuplicates([], { severity: 'loud' as never })).rejects.toMatchObject({
      field: 'severity',
    });
    await expect(findDuplicates([], { thresholds: { duplicateTokens: -1 } })).rejects.toMatchObject(
      { field: 'thresholds' },
    );
    await expect(findDuplicates([], { maxTokens: 1.5 })).rejects.toMatchObject({
      field: 'maxTokens',
    });
  });
});
