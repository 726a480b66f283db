// Which language a file is, by its extension, and which tree-sitter grammar parses it. Pure
// data: no loading here (see parser.ts).

/** A language Cairn chunks and analyses by syntax. */
export type CodeLanguage =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'ruby'
  | 'php'
  | 'kotlin';

/** The grammar file in tree-sitter-wasms/out for each language. */
export const GRAMMAR_FILES: Readonly<Record<CodeLanguage, string>> = {
  typescript: 'tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  python: 'tree-sitter-python.wasm',
  go: 'tree-sitter-go.wasm',
  rust: 'tree-sitter-rust.wasm',
  java: 'tree-sitter-java.wasm',
  c: 'tree-sitter-c.wasm',
  cpp: 'tree-sitter-cpp.wasm',
  csharp: 'tree-sitter-c_sharp.wasm',
  ruby: 'tree-sitter-ruby.wasm',
  php: 'tree-sitter-php.wasm',
  kotlin: 'tree-sitter-kotlin.wasm',
};

const BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.hpp': 'cpp',
  '.hxx': 'cpp',
  '.cs': 'csharp',
  '.rb': 'ruby',
  '.php': 'php',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
};

/** The syntax language of a path (by its extension, case-insensitive), or null for others. */
export function languageOf(path: string): CodeLanguage | null {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return null;
  return BY_EXTENSION[path.slice(dot).toLowerCase()] ?? null;
}

/** Every extension `languageOf` recognises (with the dot, lower case). */
export const CODE_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION);

/** Every language with a grammar, in a stable order. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = Object.keys(GRAMMAR_FILES) as CodeLanguage[];
