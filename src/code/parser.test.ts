import { describe, expect, it, vi } from 'vitest';

import { CODE_LANGUAGES, languageOf } from './languages.js';
import { parseSource } from './parser.js';

const SAMPLES: Record<string, string> = {
  typescript: 'function f(a: number): number { return a; }',
  python: 'def f(a):\n    return a\n',
  go: 'package p\nfunc f(a int) int { return a }\n',
  rust: 'fn f(a: i32) -> i32 { a }',
};

describe('parser', () => {
  it('maps extensions to languages, case-insensitively, and nothing else', () => {
    expect(languageOf('src/a.TS')).toBe('typescript');
    expect(languageOf('web/app.tsx')).toBe('tsx');
    expect(languageOf('lib/x.kts')).toBe('kotlin');
    expect(languageOf('README.md')).toBeNull();
    expect(languageOf('dir.ts/Makefile')).toBeNull();
  });

  it('parses a sample of four languages and loads only their grammars', async () => {
    // A fresh instance of the parser module: other files in this worker (vitest runs files
    // without isolation) may already have loaded more grammars into the shared one.
    vi.resetModules();
    const fresh = await import('./parser.js');
    for (const [lang, src] of Object.entries(SAMPLES)) {
      const tree = await fresh.parseSource(lang as (typeof CODE_LANGUAGES)[number], src);
      expect(tree.rootNode.hasError, lang).toBe(false);
      expect(
        tree.rootNode.descendantsOfType([
          'function_declaration',
          'function_definition',
          'function_item',
        ]).length,
        lang,
      ).toBe(1);
      tree.delete();
    }
    expect(fresh.loadedLanguages().sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it('loads every grammar it names', async () => {
    for (const lang of CODE_LANGUAGES) {
      const tree = await parseSource(lang, '');
      expect(tree.rootNode.type, lang).not.toBe('');
      tree.delete();
    }
  });
});
