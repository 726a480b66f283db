// The natural-language side of a code chunk: its docstrings and comments (prose), its name as
// words, and the text a chunk and a query are embedded as. Pure string work, no parsing: a
// comment marker inside a string literal can fool it, which costs a little ranking, no more.
import { identifierParts } from './code-tokenizer.js';
import { CODE_LANGUAGE_WORDS } from './code-vocabulary.js';

/** Languages whose line comments start with `#` (others use `//`; PHP has both). */
const HASH_COMMENTS = new Set([
  'python',
  'ruby',
  'php',
  'shell',
  'bash',
  'perl',
  'r',
  'toml',
  'yaml',
]);
const SLASH_COMMENTS = new Set([
  'typescript',
  'tsx',
  'javascript',
  'go',
  'rust',
  'java',
  'c',
  'cpp',
  'csharp',
  'kotlin',
  'php',
  'swift',
  'scala',
]);
const TRIPLE = /("""|''')([\s\S]*?)\1/g;
const BLOCK = /\/\*+([\s\S]*?)\*\//g;
const HASH = /(?:^|\s)#+(?![[!{])[ \t]*(.*)/gm;
const SLASH = /(?:^|[^:\w/])\/\/+[ \t]*(.*)/gm;
/** Longest embedding text (characters); the local model reads about 128 word pieces anyway. */
export const MAX_EMBED_CHARS = 1000;

const tidy = (s: string): string =>
  s
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd())
    .join('\n')
    .trim();

/**
 * The docstrings and comment blocks of a chunk, in order of appearance (a line comment is a
 * block of one line). `language` picks the comment syntax (`#` or `//`); null reads both.
 */
export function codeProseBlocks(text: string, language: string | null = null): string[] {
  const hash = language === null || !SLASH_COMMENTS.has(language) || HASH_COMMENTS.has(language);
  const slash = language === null || !HASH_COMMENTS.has(language) || language === 'php';
  const found: Array<[number, string]> = [];
  for (const m of text.matchAll(TRIPLE)) found.push([m.index, tidy(m[2] ?? '')]);
  if (slash) {
    for (const m of text.matchAll(BLOCK)) found.push([m.index, tidy(m[1] ?? '')]);
    for (const m of text.matchAll(SLASH)) found.push([m.index, (m[1] ?? '').trim()]);
  }
  if (hash) for (const m of text.matchAll(HASH)) found.push([m.index, (m[1] ?? '').trim()]);
  return found
    .sort((a, b) => a[0] - b[0])
    .map(([, s]) => s)
    .filter((s) => s !== '');
}

/** The docstrings and comments of a chunk as one text, a block a line (see codeProseBlocks). */
export const codeProse = (text: string, language: string | null = null): string =>
  codeProseBlocks(text, language).join('\n');

/** An identifier as lower-case words: `Cache.getHTTPResponse` → `cache get http response`. */
export function identifierWords(name: string): string {
  const words: string[] = [];
  for (const m of name.matchAll(/[\p{L}\p{N}_]+/gu)) {
    for (const [s, e] of identifierParts(m[0])) words.push(m[0].slice(s, e).toLowerCase());
  }
  return words.join(' ');
}

/** The chunk fields the embedding text is made from. */
export interface EmbeddableChunk {
  symbol: string | null;
  signature: string | null;
  text: string;
}

/**
 * What a code chunk is embedded as: its name in words, then the first paragraph of its first
 * docstring or comment block, then the first line of each later block (`write boolean. Writes
 * a Boolean to the stream.`). A chunk without prose adds its signature in words and its code.
 * At most MAX_EMBED_CHARS.
 */
export function codeEmbeddingText(chunk: EmbeddableChunk, language: string | null = null): string {
  const name = identifierWords(chunk.symbol ?? '');
  const [first = '', ...rest] = codeProseBlocks(chunk.text, language);
  const lead = (first.split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ');
  const prose = [lead, ...rest.map((p) => p.split('\n')[0] ?? '')]
    .filter((p) => p !== '')
    .join(' ');
  const parts =
    prose === ''
      ? [name, identifierWords(chunk.signature ?? ''), chunk.text]
      : [name === '' ? '' : `${name}.`, prose];
  return parts
    .filter((p) => p !== '')
    .join(prose === '' ? '\n' : ' ')
    .slice(0, MAX_EMBED_CHARS);
}

/**
 * What a code search query is embedded as: the query without the names of programming
 * languages (`python`, …), which a sentence encoder otherwise matches against every chunk
 * that mentions the language. The query itself when nothing else remains.
 */
export function codeVectorQuery(query: string): string {
  const kept = query
    .split(/(\s+)/)
    .filter((w) => !CODE_LANGUAGE_WORDS.has(w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')));
  const out = kept.join('').replace(/\s+/g, ' ').trim();
  return out === '' ? query : out;
}
