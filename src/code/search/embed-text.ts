// What a code chunk and a code query are embedded as, by default: the chunk's name split into
// words, its signature and its code, cut to 1,000 characters (a sentence encoder reads about
// 128 word pieces anyway); the query as given. CoSQA tuning may replace it (createCodeSearch
// and the embedding backlog take a CodeEmbedText). Pure.
import type { CodeEmbedText } from './types.js';

/** Longest text embedded for one chunk, in characters. */
export const MAX_CHUNK_EMBED_CHARS = 1000;

/** `Cache.getHTTPResponse` → `cache get http response`. */
export function identifierWords(name: string): string {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

export const DEFAULT_CODE_EMBED_TEXT: CodeEmbedText = Object.freeze({
  chunk(c: Parameters<CodeEmbedText['chunk']>[0]): string {
    const parts = [identifierWords(c.symbol ?? ''), c.signature ?? '', c.text];
    return parts
      .filter((p) => p.trim() !== '')
      .join('\n')
      .slice(0, MAX_CHUNK_EMBED_CHARS);
  },
  query: (q: string) => q,
});
