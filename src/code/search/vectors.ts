// Whether the vector channel can take part in a search, and the query's vector when it can;
// otherwise the reason, which the answer reports (`degraded`). A model that is still loading
// is not waited for: the search answers by BM25 at once and the model warms meanwhile.
import { chunkVectorModel } from './embed-text.js';
import type { IndexStates } from './index-state.js';
import type { QueryVector } from './rank.js';
import type { CodeEmbedder, CodeEmbedText } from './types.js';

export const NO_EMBEDDER = 'no embedder is configured (CAIRN_EMBEDDINGS=none)';

/** The query's vector, or why vectors cannot answer this search. */
export async function queryVector(
  embedder: CodeEmbedder | null,
  embedText: CodeEmbedText,
  query: string,
  index: Pick<IndexStates, 'chunks' | 'embedded'>,
): Promise<QueryVector | string> {
  if (embedder === null) return NO_EMBEDDER;
  if (index.embedded === 0) {
    return `no chunk of the searched collections has a vector from ${embedder.model} yet (${index.chunks} waiting for the background embedder)`;
  }
  if (!embedder.isReady()) {
    embedder.warm();
    return `the embedding model ${embedder.model} is still loading`;
  }
  try {
    const [vector] = await embedder.embed([embedText.query(query)]);
    if (vector !== undefined) return { model: chunkVectorModel(embedder.model, embedText), vector };
  } catch {
    // Reported below, like an empty answer.
  }
  return `the embedder ${embedder.model} could not embed the query`;
}
