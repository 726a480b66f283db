// chunkFile's edges: line-window fallback, top-level code, syntax errors, empty and huge files,
// long declarations split into windows, elided class bodies, references, bounds, bad input.
import { describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/errors.js';
import { CHUNK_DEFAULTS, chunkFile } from './index.js';

const numbered = (n: number, make: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => make(i + 1)).join('\n');

const ranges = (chunks: { startLine: number; endLine: number }[]): string[] =>
  chunks.map((c) => `${c.startLine}-${c.endLine}`);

describe('chunkFile fallback windows', () => {
  it('windows a file without a grammar: 60 lines overlapping by 10', async () => {
    const text = numbered(130, (i) => `line ${i} of the notes`);
    const file = await chunkFile({ path: 'notes.md', language: 'markdown', text });
    expect(file).toMatchObject({
      mode: 'fallback',
      fallbackReason: 'no-grammar',
      language: 'markdown',
    });
    expect(ranges(file.chunks)).toEqual(['1-60', '51-110', '101-130']);
    expect(file.chunks.map((c) => `${c.kind} ${c.part}/${c.parts}`)).toEqual([
      'window 1/3',
      'window 2/3',
      'window 3/3',
    ]);
    expect(file.chunks[1]?.text.split('\n')[0]).toBe('line 51 of the notes');
    expect(CHUNK_DEFAULTS).toMatchObject({ windowLines: 60, windowOverlapLines: 10 });
  });

  it('honours the window options and trims blank edges; a null language is text', async () => {
    const text = `\n\n${numbered(10, (i) => `k${i}: v`)}\n\n`;
    const file = await chunkFile(
      { path: 'a.yaml', language: null, text },
      { windowLines: 4, windowOverlapLines: 1 },
    );
    expect(file.language).toBe('text');
    expect(ranges(file.chunks)).toEqual(['3-6', '6-9', '9-12']);
  });

  it('windows a top-level script and keeps its calls as outgoing references', async () => {
    const text = 'import sys\nname = sys.argv[1]\nprint(greet(name))\n';
    const file = await chunkFile({ path: 'run.py', language: 'python', text });
    expect(file).toMatchObject({
      mode: 'fallback',
      fallbackReason: 'no-declarations',
      imports: ['sys'],
    });
    expect(ranges(file.chunks)).toEqual(['1-3']);
    expect(file.chunks[0]?.calls.sort()).toEqual(['greet', 'print']);
    expect(file.chunks[0]?.references).toEqual(expect.arrayContaining(['name', 'argv']));
  });

  it('turns top-level code between declarations into windows, skipping trivial gaps', async () => {
    const text = [
      'def a():',
      '    return 1',
      '',
      'CONFIG = load_config("settings.toml")',
      'register(a, CONFIG)',
      '',
      'def b():',
      '    return 2',
      'x = 1',
    ].join('\n');
    const file = await chunkFile({ path: 'm.py', language: 'python', text });
    expect(
      file.chunks.map((c) => `${c.kind} ${c.symbol ?? '-'} ${c.startLine}-${c.endLine}`),
    ).toEqual(['function a 1-2', 'window - 4-5', 'function b 7-8']);
    expect(file.chunks[1]?.calls.sort()).toEqual(['load_config', 'register']);
  });
});

describe('chunkFile on bad or extreme input', () => {
  it('chunks what parses in a file with syntax errors, and says so', async () => {
    const text =
      'function good(a) {\n  return a;\n}\n\nfunction broken( {\n  let = ;\n\nclass Later {\n  m() { return 1; }\n}\n';
    const file = await chunkFile({ path: 'bad.js', language: 'javascript', text });
    expect(file.hasSyntaxErrors).toBe(true);
    expect(file.chunks.find((c) => c.symbol === 'good')).toMatchObject({
      kind: 'function',
      startLine: 1,
      endLine: 3,
    });
  });

  it('never throws on garbage in any grammar', async () => {
    const garbage = '}{)(][ \u0000\u00ff ??? <<<>>> def class fn func {{{{ "unterminated\n'.repeat(
      20,
    );
    for (const language of ['typescript', 'python', 'rust', 'cpp', 'kotlin', 'php', 'ruby']) {
      const file = await chunkFile({ path: 'x', language, text: garbage });
      expect(file.chunks.length, language).toBeGreaterThan(0);
    }
  });

  it('returns no chunks and no imports for an empty or blank file', async () => {
    for (const text of ['', '\n\n   \n']) {
      const file = await chunkFile({ path: 'e.ts', language: 'typescript', text });
      expect(file.chunks).toEqual([]);
      expect(file.imports).toEqual([]);
    }
  });

  it('bounds a huge single-line (minified) file to one short window without parsing it', async () => {
    const text = 'var a=function(){return 1};'.repeat(80_000);
    const file = await chunkFile({ path: 'app.min.js', language: 'javascript', text });
    expect(file).toMatchObject({ mode: 'fallback', fallbackReason: 'long-lines' });
    expect(file.chunks).toHaveLength(1);
    expect(file.chunks[0]?.text.length).toBeLessThanOrEqual(CHUNK_DEFAULTS.maxLineChars + 1);
  });

  it('stops at maxChunks and flags the cut', async () => {
    const text = numbered(50, (i) => `function f${i}() { return ${i}; }`);
    const file = await chunkFile(
      { path: 'many.js', language: 'javascript', text },
      { maxChunks: 10 },
    );
    expect(file.chunks).toHaveLength(10);
    expect(file.truncated).toBe(true);
  });

  it('rejects a non-string text with a typed error naming the field', async () => {
    const input = { path: 'a.ts', language: 'typescript', text: 42 as unknown as string };
    await expect(chunkFile(input)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(chunkFile(input)).rejects.toMatchObject({ field: 'text' });
    const badLanguage = { path: 'a.ts', language: 7 as unknown as string, text: '' };
    await expect(chunkFile(badLanguage)).rejects.toMatchObject({ field: 'language' });
  });
});

describe('chunkFile declarations', () => {
  it('splits a very long function into overlapping windows that keep the symbol', async () => {
    const body = numbered(300, (i) => `    total += step(${i})`);
    const text = `# Sums.\ndef long_one(step):\n    total = 0\n${body}\n    return total\n`;
    const file = await chunkFile({ path: 'long.py', language: 'python', text });
    const parts = file.chunks.filter((c) => c.symbol === 'long_one');
    expect(ranges(parts)).toEqual(['1-120', '101-220', '201-304']);
    expect(parts.map((c) => `${c.part}/${c.parts} ${c.signature}`)).toEqual([
      '1/3 def long_one(step)',
      '2/3 def long_one(step)',
      '3/3 def long_one(step)',
    ]);
    expect(parts[0]?.calls).toEqual(['step']);
    expect(parts[1]?.calls).toEqual([]);
  });

  it('keeps a class chunk to its header and member signatures; methods carry their bodies', async () => {
    const text = [
      '/** A counter. */',
      'export class Counter {',
      '  private n = 0;',
      '  /** Adds one. */',
      '  increment(): number {',
      '    this.n = this.n + 1;',
      '    return this.n;',
      '  }',
      '}',
    ].join('\n');
    const file = await chunkFile({ path: 'c.ts', language: 'typescript', text });
    const [cls, method] = file.chunks;
    expect(cls?.text).toBe(
      '/** A counter. */\nexport class Counter {\n  private n = 0;\n  /** Adds one. */\n  increment(): number { … }\n}',
    );
    expect(method).toMatchObject({
      kind: 'method',
      symbol: 'Counter.increment',
      parent: 'Counter',
      startLine: 4,
      endLine: 8,
    });
    expect(method?.text).toContain('return this.n;');
  });

  it('records the outgoing references of a function: calls apart from other identifiers', async () => {
    const text = [
      'import { parse } from "./p.js";',
      'export function render(doc: Doc, opts: Options): string {',
      '  const tree = parse(doc.source);',
      '  const out = new Printer(opts).print(tree);',
      '  return format(out, opts.width) + format(out, 0);',
      '}',
    ].join('\n');
    const file = await chunkFile({ path: 'r.ts', language: 'typescript', text });
    const render = file.chunks.find((c) => c.symbol === 'render');
    expect(render?.calls.sort()).toEqual(['Printer', 'format', 'parse', 'print']);
    expect(render?.references.sort()).toEqual([
      'Doc',
      'Options',
      'doc',
      'opts',
      'out',
      'source',
      'tree',
      'width',
    ]);
  });

  it('bounds references and signatures', async () => {
    const params = Array.from({ length: 200 }, (_, i) => `p${i}`).join(', ');
    const text = `function wide(${params}) {\n  return [${params}];\n}\n`;
    const file = await chunkFile(
      { path: 'w.js', language: 'javascript', text },
      { maxReferences: 16 },
    );
    const wide = file.chunks[0];
    expect(wide?.signature.length).toBe(CHUNK_DEFAULTS.maxSignatureChars);
    expect(wide?.signature.endsWith('…')).toBe(true);
    expect(wide?.references).toHaveLength(16);
  });
});
