// Ollama embeddings: POST {host}/api/embed with { model, input } → { embeddings: number[][] }.
import { z } from 'zod';

import { EmbedError } from './errors.js';
import { displayUrl, postJson } from './http.js';
import { createRemoteEmbedder, resolveTuning } from './remote.js';
import type { Embedder, OllamaEmbedConfig } from './types.js';

const DEFAULT_BATCH_SIZE = 32;

const ollamaAnswer = z.object({ embeddings: z.array(z.array(z.number())) });

/**
 * An embedder backed by an Ollama server. `dims()` is learned from the first answer.
 * `embed` throws EmbedError (see {@link postJson}); a model that is not pulled is an `http` 404.
 */
export function createOllamaEmbedder(config: Omit<OllamaEmbedConfig, 'provider'>): Embedder {
  const tuning = resolveTuning(config, DEFAULT_BATCH_SIZE);
  const url = `${config.host.replace(/\/+$/, '')}/api/embed`;
  return createRemoteEmbedder({
    model: `ollama:${config.model}`,
    label: 'ollama',
    batchSize: tuning.batchSize,
    async request(batch) {
      const answer = await postJson({
        ...tuning,
        label: 'ollama',
        url,
        headers: {},
        body: { model: config.model, input: batch },
        secrets: [],
      });
      const parsed = ollamaAnswer.safeParse(answer);
      if (!parsed.success) {
        throw new EmbedError(
          'malformed',
          `embed: ollama answer lacks embeddings: number[][] (${displayUrl(url)})`,
        );
      }
      return parsed.data.embeddings;
    },
  });
}
