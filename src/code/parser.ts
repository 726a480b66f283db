// Parses source text into tree-sitter syntax trees. The runtime is initialised once per process
// and each grammar is loaded only when a file of its language is first parsed (one failed load
// must not break the others, so a failure is remembered per language, never thrown twice).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Language, Parser, type Tree } from 'web-tree-sitter';

import { type CodeLanguage, GRAMMAR_FILES } from './languages.js';

export type { Node as SyntaxNode, Tree as SyntaxTree } from 'web-tree-sitter';

const require = createRequire(import.meta.url);
let runtime: Promise<void> | undefined;
const grammars = new Map<CodeLanguage, Promise<Language>>();

/** The folder holding the grammar .wasm files of tree-sitter-wasms. */
function grammarDir(): string {
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

/** Initialises the WebAssembly runtime once per process. */
function ready(): Promise<void> {
  runtime ??= Parser.init();
  return runtime;
}

/** Grammar loads run one at a time: two concurrent first loads can make one of them fail. */
let loads: Promise<unknown> = Promise.resolve();

async function loadGrammar(language: CodeLanguage): Promise<Language> {
  await ready();
  const load = loads.then(() => Language.load(join(grammarDir(), GRAMMAR_FILES[language])));
  loads = load.catch(() => undefined);
  return load;
}

/**
 * The grammar of `language`, loaded on first use and cached (a failed load is cached too, so
 * every later call rejects with the same error instead of retrying a broken file).
 */
export function grammar(language: CodeLanguage): Promise<Language> {
  let loading = grammars.get(language);
  if (loading === undefined) {
    loading = loadGrammar(language);
    grammars.set(language, loading);
  }
  return loading;
}

/** Languages whose grammar has been asked for in this process (for status and tests). */
export function loadedLanguages(): CodeLanguage[] {
  return [...grammars.keys()];
}

/**
 * Parses `source` as `language`. The caller owns the tree and must `delete()` it when done
 * (trees live in the WebAssembly heap, not the JS one).
 * @throws Error when the grammar cannot be loaded or the parser gives no tree.
 */
export async function parseSource(language: CodeLanguage, source: string): Promise<Tree> {
  const lang = await grammar(language);
  const parser = new Parser();
  try {
    parser.setLanguage(lang);
    const tree = parser.parse(source);
    if (tree === null) throw new Error(`tree-sitter gave no tree for ${language}`);
    return tree;
  } finally {
    parser.delete();
  }
}
