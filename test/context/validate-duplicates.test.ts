// validate_code's cross-file duplicates through a real SDK client: one finding naming both
// locations, sorted with the others, severity and disabling from the rules file, none for
// distinct files, no double report of a copy within one file, and the scan's finding cap
// counted as truncation with exact counts.
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { DuplicateFinding, ValidateReport } from '../../src/code/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { linkedClient } from '../helpers.js';
import { callContext, contextCore, makeProject, type Project } from './fixtures.js';

/** A function of 8 distinct arithmetic lines: well over the duplicate thresholds when copied. */
function summer(name: string, lines = 8): string {
  const body = Array.from(
    { length: lines },
    (_, i) => `  total = total + values[${i}] * ${i + 2};`,
  );
  return [
    `export function ${name}(values: number[]) {`,
    '  let total = 0;',
    ...body,
    '  return total;',
    '}',
    '',
  ].join('\n');
}

describe('cairn-context: validate_code finds duplicates across files', () => {
  let project: Project;
  let client: Client;
  let close: () => Promise<void>;

  beforeEach(async () => {
    project = makeProject();
    const t = await contextCore(project);
    client = await linkedClient(createContextServer(t.core));
    close = async () => {
      await client.close();
      await t.close();
      project.dir.cleanup();
    };
  });
  afterEach(() => close());

  const duplicates = (path: string, rules = ['duplicate-block']) =>
    callContext<ValidateReport>(client, 'validate_code', { path, rules });

  it('a function copied into two files: one finding naming both locations', async () => {
    project.write('dup/a.ts', summer('first'));
    project.write('dup/b.ts', `const pad = 1;\n\n${summer('second')}`);
    const { text, data } = await duplicates(join(project.root, 'dup'));
    const found = data.findings as DuplicateFinding[];
    expect(found.map((f) => [f.path, f.line, f.rule, f.duplicateOf])).toEqual([
      ['b.ts', 4, 'duplicate-block', { path: 'a.ts', line: 2, endLine: 12 }],
    ]);
    expect(found[0]?.message).toMatch(/^lines 4–14 repeat a\.ts lines 2–12 \(\d+ tokens\)$/);
    expect(data.counts).toEqual({
      findings: 1,
      bySeverity: { error: 0, warning: 1, info: 0 },
      byRule: { 'duplicate-block': 1 },
      files: 1,
    });
    expect(text).toContain('b.ts:4:1 warning duplicate-block: lines 4–14 repeat a.ts');
    // The whole category runs it too; a rule selection without it does not.
    const category = await callContext<ValidateReport>(client, 'validate_code', {
      path: join(project.root, 'dup'),
      category: 'duplication',
    });
    expect(category.data.counts.byRule).toEqual({ 'duplicate-block': 1 });
    const other = await duplicates(join(project.root, 'dup'), ['duplicate-function']);
    expect(other.data.counts.findings).toBe(0);
  });

  it('sorted among the other findings; severity and disabling from the rules file', async () => {
    project.write('dup/a.ts', summer('first'));
    project.write('dup/b.ts', `// TODO: merge\n${summer('second')}`);
    project.write('dup/.cairn/rules.toml', '[severity]\nduplicate-block = "error"\n');
    const mixed = await duplicates(join(project.root, 'dup'), ['duplicate-block', 'todo-comment']);
    expect(mixed.data.findings.map((f) => [f.path, f.line, f.rule, f.severity])).toEqual([
      ['b.ts', 1, 'todo-comment', 'info'],
      ['b.ts', 3, 'duplicate-block', 'error'],
    ]);
    project.write('dup/.cairn/rules.toml', 'disabled = ["duplicate-block"]\n');
    const all = await callContext<ValidateReport>(client, 'validate_code', {
      path: join(project.root, 'dup'),
    });
    expect(all.data.counts.byRule['duplicate-block']).toBeUndefined();
    project.write(
      'dup/.cairn/rules.toml',
      '[[overrides]]\npaths = ["b.ts"]\ndisabled = ["duplicate-block"]\n',
    );
    const some = await callContext<ValidateReport>(client, 'validate_code', {
      path: join(project.root, 'dup'),
    });
    expect(some.data.counts.byRule['duplicate-block']).toBeUndefined();
  });

  it('distinct files: no duplicate; a copy within one file is reported once', async () => {
    project.write('dup/a.ts', summer('first'));
    const other = summer('other')
      .replace(/\* (\d+)/g, '- $1')
      .replace(/\+ values/g, '* values');
    project.write('dup/b.ts', other);
    const none = await duplicates(join(project.root, 'dup'));
    expect(none.data.counts.findings).toBe(0);
    // Block repeated inside c.ts (within-file duplicate-block) and nowhere else.
    const lines = Array.from({ length: 8 }, (_, i) => `  acc = acc - items[${i}] / ${i + 7};`);
    const inner = [
      'export function twice(items: number[]) {',
      '  let acc = 1;',
      ...lines,
      '  acc = acc * 2;',
      ...lines,
      '  return acc;',
      '}',
      '',
    ].join('\n');
    project.write('dup/c.ts', inner);
    const once = await duplicates(join(project.root, 'dup'));
    expect(once.data.findings.map((f) => [f.path, f.line, f.rule])).toEqual([
      ['c.ts', 12, 'duplicate-block'],
    ]);
    expect(once.data.findings[0]?.message).toMatch(/^lines 12–19 repeat lines 3–10 /);
  });

  it('more duplicates than the answer holds: exact counts, truncated (shown)', async () => {
    for (let i = 0; i < 203; i++)
      project.write(`many/f${String(i).padStart(3, '0')}.ts`, summer(`f${i}`));
    const { data } = await duplicates(join(project.root, 'many'));
    expect(data.files.read).toBe(203);
    expect(data.counts).toEqual({
      findings: 202,
      bySeverity: { error: 0, warning: 202, info: 0 },
      byRule: { 'duplicate-block': 202 },
      files: 202,
    });
    expect(data.findings).toHaveLength(200);
    expect(data.findings[0]).toMatchObject({
      path: 'f001.ts',
      duplicateOf: { path: 'f000.ts' },
    });
    expect(data).toMatchObject({ truncated: true, truncatedBy: ['shown'] });
    expect(data.hint).toMatch(/^showing 200 of 202 findings from 203 files; /);
  });
});
