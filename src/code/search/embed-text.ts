// What a code chunk and a code query are embedded as, by default: src/search's measured texts
// (codeEmbeddingText: the name in words, the docstring's lead and the comments, the code only
// when there is no prose; codeVectorQuery: the query without language names). Chunk vectors are
// stored under the embedder's model plus the text's version (chunkVectorModel), so vectors of
// an older text are never searched beside new ones: they wait to be embedded again. Pure.
import { codeEmbeddingText, codeVectorQuery } from '../../search/index.js';
import type { CodeEmbedText } from './types.js';

export const DEFAULT_CODE_EMBED_TEXT: CodeEmbedText = Object.freeze({
  version: 'code-text-2',
  chunk: (c: Parameters<CodeEmbedText['chunk']>[0]): string => codeEmbeddingText(c, c.language),
  query: codeVectorQuery,
});

/**
 * The model key chunk vectors are stored and searched under: the embedder's model and the
 * embedding text's version (`local:use-lite-en-512#code-text-2`).
 */
export const chunkVectorModel = (
  model: string,
  text: CodeEmbedText = DEFAULT_CODE_EMBED_TEXT,
): string => `${model}#${text.version}`;
