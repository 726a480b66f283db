// validatePath and analyzePath on real files in a temp directory: scopes and their defaults,
// the walk's exclusions, exact counts with a bounded list, every refusal naming its field (and
// rules refused before the path is looked at), truncation by count, files, time and
// cancellation, a file that fails without ending the run, and the analysis of files and folders.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/index.js';
import { listRules } from '../rules/index.js';
import { analyzePath } from './analyze-path.js';
import type { DirectoryAnalysis, FileAnalysis } from './types.js';
import { validatePath } from './validate-path.js';

const TS = [
  'export function load(path: string) {',
  '  // TODO: cache the result',
  '  console.log(path);',
  '  return path;',
  '}',
  '',
].join('\n');
const PY = ['def f(x):', '    print(x)  # FIXME: remove', '    return x', ''].join('\n');
const BRANCHY = [
  'export function pick(a: number, b: number) {',
  '  if (a > b) { if (a > 10) { return a; } }',
  '  for (let i = 0; i < b; i++) { if (i === a) { return i; } }',
  '  return b;',
  '}',
  'export const id = (x: number) => x;',
  '',
].join('\n');

let root: string;
let outside: string;

function write(rel: string, content: string | Buffer): string {
  const abs = join(root, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
  return abs;
}

async function refusal(
  p: Promise<unknown>,
): Promise<{ field: string | undefined; message: string }> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputError);
  const e = err as InvalidInputError;
  return { field: e.field, message: e.message };
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-inspect-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-outside-')));
  write('src/load.ts', TS);
  write('src/pick.ts', BRANCHY);
  write('tools/f.py', PY);
  write('node_modules/dep/index.ts', TS);
  write('README.md', '# TODO: docs\n');
  write('src/blob.ts', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
  writeFileSync(join(outside, 'secret.ts'), TS);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const roots = (): string[] => [root];
/** The rules the samples' findings come from (exact counts name them). */
const HYGIENE = ['todo-comment', 'debug-print'];

describe('validatePath', () => {
  it('scope file (the default for a file): findings, counts and the selected rules', async () => {
    const r = await validatePath({ path: join(root, 'src/load.ts'), allowedRoots: roots() });
    expect(r.scope).toBe('file');
    expect(r.root).toBe(join(root, 'src/load.ts'));
    expect(r.rules).toEqual(listRules().map((x) => x.id));
    const hygiene = await validatePath({
      path: join(root, 'src/load.ts'),
      allowedRoots: roots(),
      rules: HYGIENE,
    });
    expect(hygiene.findings.map((f) => [f.line, f.rule])).toEqual([
      [2, 'todo-comment'],
      [3, 'debug-print'],
    ]);
    expect(hygiene.findings[0]?.path).toBe(join(root, 'src/load.ts'));
    expect(hygiene.counts).toEqual({
      findings: 2,
      bySeverity: { error: 0, warning: 0, info: 2 },
      byRule: { 'todo-comment': 1, 'debug-print': 1 },
      files: 1,
    });
    expect(r.files).toMatchObject({ read: 1, notRead: 0, failedCount: 0 });
    expect(r.rules).toContain('cyclomatic-complexity');
    expect(r.thresholds.cyclomatic).toBe(10);
    expect(r).toMatchObject({ truncated: false, truncatedBy: [] });
    expect(r.hint).toBeUndefined();
  });

  it('scope project (the default for a directory) walks with the ignore rules', async () => {
    const r = await validatePath({ path: root, allowedRoots: roots(), rules: ['todo-comment'] });
    expect(r.scope).toBe('project');
    expect(r.rules).toEqual(['todo-comment']);
    // node_modules is a default exclusion, README.md is not code, blob.ts is binary.
    expect(r.findings.map((f) => `${f.path}:${f.line}`)).toEqual(['src/load.ts:2', 'tools/f.py:2']);
    expect(r.files.read).toBe(3);
    expect(r.files.skippedByWalk).toMatchObject({ default_dir: 1, extension: 1, binary: 1 });
    expect(r.counts).toMatchObject({ findings: 2, files: 2, byRule: { 'todo-comment': 2 } });
  });

  it('a category narrows the rules; with a relative path and cwd', async () => {
    const r = await validatePath({
      path: 'src',
      cwd: root,
      allowedRoots: roots(),
      category: 'complexity',
    });
    expect(r.rules).toEqual(
      listRules()
        .filter((x) => x.category === 'complexity')
        .map((x) => x.id),
    );
    expect(r.rules).toContain('cognitive-complexity');
    expect(r.counts.findings).toBe(0);
    expect(r.files.read).toBe(2);
  });

  it('refuses unknown rules and categories before looking at the path', async () => {
    const bad = await refusal(
      validatePath({ path: '/etc/passwd', allowedRoots: roots(), rules: ['nope', 'todo-comment'] }),
    );
    expect(bad).toEqual({ field: 'rules', message: expect.stringContaining('nope') as string });
    const cat = await refusal(
      validatePath({ path: '/etc/passwd', allowedRoots: roots(), category: 'style' }),
    );
    expect(cat.field).toBe('category');
  });

  it('refuses paths naming the field: outside, missing, binary, not code, wrong scope', async () => {
    const cases: [string, Partial<Parameters<typeof validatePath>[0]>, RegExp][] = [
      ['/etc/passwd', {}, /outside the allowed roots/],
      [join(outside, 'secret.ts'), {}, /outside the allowed roots/],
      [join(root, 'missing.ts'), {}, /does not exist/],
      [join(root, 'src/blob.ts'), {}, /binary file/],
      [join(root, 'README.md'), {}, /not in a language with a grammar/],
      [join(root, 'src'), { scope: 'file' }, /is a directory; scope "file" needs a file/],
      [join(root, 'src/load.ts'), { scope: 'project' }, /is a file; scope "project"/],
      ['  ', {}, /non-empty/],
    ];
    for (const [path, extra, message] of cases) {
      const r = await refusal(validatePath({ path, allowedRoots: roots(), ...extra }));
      expect(r.field, path).toBe('path');
      expect(r.message, path).toMatch(message);
    }
  });

  it('a symlink out of the roots is refused once resolved', async () => {
    const { symlinkSync } = await import('node:fs');
    symlinkSync(join(outside, 'secret.ts'), join(root, 'link.ts'));
    const r = await refusal(validatePath({ path: join(root, 'link.ts'), allowedRoots: roots() }));
    expect(r).toMatchObject({ field: 'path', message: expect.stringMatching(/resolves to/) });
  });

  it('bounds the findings shown and says so, with exact counts', async () => {
    const r = await validatePath({
      path: root,
      allowedRoots: roots(),
      rules: HYGIENE,
      limits: { maxShown: 1 },
    });
    expect(r.findings).toHaveLength(1);
    expect(r.counts.findings).toBe(4);
    expect(r).toMatchObject({ truncated: true, truncatedBy: ['shown'] });
    expect(r.hint).toMatch(/^showing 1 of 4 findings from 3 files; .*Narrow it: /);
    const bytes = await validatePath({
      path: root,
      allowedRoots: roots(),
      limits: { maxBytes: 10 },
    });
    expect(bytes.findings).toHaveLength(1);
    expect(bytes.truncatedBy).toEqual(['shown']);
  });

  it('stops at the file cap, the time budget and cancellation, counting what it left', async () => {
    const capped = await validatePath({
      path: root,
      allowedRoots: roots(),
      limits: { maxFiles: 1 },
    });
    expect(capped.files).toMatchObject({ read: 1, notRead: 2 });
    expect(capped.truncatedBy).toEqual(['files']);
    const timed = await validatePath({ path: root, allowedRoots: roots(), limits: { maxMs: -1 } });
    expect(timed.files).toMatchObject({ read: 1, notRead: 2 });
    expect(timed.truncatedBy).toEqual(['time']);
    const controller = new AbortController();
    const progress: string[] = [];
    const cancelled = await validatePath({
      path: root,
      allowedRoots: roots(),
      signal: controller.signal,
      onProgress: (done, total, path) => {
        progress.push(`${done}/${total} ${path}`);
        controller.abort();
      },
    });
    expect(progress).toEqual(['1/3 src/load.ts']);
    expect(cancelled.files).toMatchObject({ read: 1, notRead: 2 });
    expect(cancelled.truncatedBy).toEqual(['cancelled']);
  });

  it('a file too long to validate is listed under failed; the run goes on', async () => {
    // 2,080,000 characters: under the 2 MiB read limit, over what validateSource accepts.
    write('src/huge.ts', 'const x = 1;\n'.repeat(160_000));
    const r = await validatePath({ path: root, allowedRoots: roots(), rules: ['todo-comment'] });
    expect(r.files.failedCount).toBe(1);
    expect(r.files.failed[0]).toMatchObject({ path: 'src/huge.ts' });
    expect(r.files.read).toBe(3);
    expect(r.counts.findings).toBe(2);
  });

  it('says loudly when a directory holds nothing to validate', async () => {
    mkdirSync(join(root, 'empty'));
    write('empty/notes.txt', 'hello\n');
    const r = await validatePath({ path: join(root, 'empty'), allowedRoots: roots() });
    expect(r.files.read).toBe(0);
    expect(r.nothing).toMatch(/\S/);
  });
});

describe('analyzePath', () => {
  it('a file: every metric and its functions in source order', async () => {
    const r = (await analyzePath({
      path: join(root, 'src/pick.ts'),
      allowedRoots: roots(),
    })) as FileAnalysis;
    expect(r.kind).toBe('file');
    expect(r.functionCount).toBe(2);
    expect(r.file.functions.map((f) => [f.name, f.startLine, f.cyclomatic])).toEqual([
      ['pick', 1, 5],
      ['id', 6, 1],
    ]);
    expect(r.file.sloc).toBe(6);
    expect(r.file.halstead.volume).toBeGreaterThan(0);
    expect(r.truncated).toBe(false);
    const cut = (await analyzePath({
      path: join(root, 'src/pick.ts'),
      allowedRoots: roots(),
      limits: { maxShown: 1 },
    })) as FileAnalysis;
    expect(cut.file.functions).toHaveLength(1);
    expect(cut).toMatchObject({ functionCount: 2, truncated: true, truncatedBy: ['shown'] });
    expect(cut.hint).toMatch(/^showing 1 of 2 functions/);
  });

  it('a directory: summaries by path, totals, the most complex functions first', async () => {
    const r = (await analyzePath({ path: root, allowedRoots: roots() })) as DirectoryAnalysis;
    expect(r.kind).toBe('directory');
    expect(r.summaries.map((s) => s.path)).toEqual(['src/load.ts', 'src/pick.ts', 'tools/f.py']);
    expect(r.totals).toMatchObject({ files: 3, functions: 4 });
    expect(r.totals.sloc).toBe(r.summaries.reduce((n, s) => n + s.sloc, 0));
    expect(r.hotspots[0]).toMatchObject({ path: 'src/pick.ts', name: 'pick', cyclomatic: 5 });
    const cut = (await analyzePath({
      path: root,
      allowedRoots: roots(),
      limits: { maxShown: 2 },
    })) as DirectoryAnalysis;
    expect(cut.summaries).toHaveLength(2);
    expect(cut).toMatchObject({ truncated: true, truncatedBy: ['shown'] });
    expect(cut.totals.files).toBe(3);
  });

  it('refuses a path outside the roots and a binary file, naming path', async () => {
    expect((await refusal(analyzePath({ path: '/etc/passwd', allowedRoots: roots() }))).field).toBe(
      'path',
    );
    const bin = await refusal(
      analyzePath({ path: join(root, 'src/blob.ts'), allowedRoots: roots() }),
    );
    expect(bin).toMatchObject({ field: 'path', message: expect.stringMatching(/binary/) });
  });
});
