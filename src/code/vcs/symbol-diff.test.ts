// Declarations matched across two sides: split declarations merged back, repeated keys kept
// apart, a moved declaration unchanged, whitespace at line ends ignored, a kind change a swap.
import { describe, expect, it } from 'vitest';

import { chunkFile } from '../chunk/index.js';
import { declarationsOf, diffDeclarations } from './symbol-diff.js';

const decls = async (text: string, path = 'a.ts') =>
  declarationsOf(
    (await chunkFile({ path, language: path.endsWith('.rs') ? 'rust' : 'typescript', text }))
      .chunks,
  );
const diff = async (before: string, after: string, path = 'a.ts') =>
  diffDeclarations(await decls(before, path), await decls(after, path), {
    base: path,
    target: path,
  });

const long = (marker: string) =>
  `function big(): number {\n${Array.from({ length: 260 }, (_, i) => `  const v${i} = ${i};`).join('\n')}\n  return ${marker};\n}\n`;

describe('diffDeclarations', () => {
  it('merges the windows of a long declaration and sees a change in its last part', async () => {
    const base = await decls(long('1'));
    expect([...base.values()].map((d) => [d.symbol, d.startLine, d.endLine])).toEqual([
      ['big', 1, 263],
    ]);
    const result = await diff(long('1'), long('2'));
    expect(result.changes.map((c) => [c.symbol, c.change])).toEqual([['big', 'changed']]);
    expect((await diff(long('1'), long('1'))).counts.unchanged).toBe(1);
  });

  it('keeps repeated keys apart (a Rust type with two impls)', async () => {
    const two = 'struct P;\nimpl P {\n  fn a() {}\n}\nimpl P {\n  fn b() {}\n}\n';
    const changed = 'struct P;\nimpl P {\n  fn a() {}\n}\nimpl P {\n  fn b() { x(); }\n}\n';
    const keys = [...(await decls(two, 'a.rs')).keys()].map((k) => k.replace(/\0/g, '|'));
    expect(keys).toContain('impl||P#2');
    const result = await diff(two, changed, 'a.rs');
    expect(result.changes.map((c) => [c.symbol, c.change])).toEqual([['P.b', 'changed']]);
  });

  it('treats a moved declaration and trailing spaces as unchanged', async () => {
    const a = 'function f() {\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n';
    const b = 'function g() {\n  return 2;   \n}\n\nfunction f() {\n  return 1;\n}\n';
    expect((await diff(a, b)).counts).toEqual({ added: 0, removed: 0, changed: 0, unchanged: 2 });
  });

  it('reports a kind change as one removed and one added', async () => {
    const result = await diff('class T {}\n', 'interface T {}\n');
    expect(result.changes.map((c) => [c.symbol, c.kind, c.change])).toEqual([
      ['T', 'interface', 'added'],
      ['T', 'class', 'removed'],
    ]);
  });
});
