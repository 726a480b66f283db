// OpenAI-compatible embeddings: POST {baseUrl}/embeddings with { model, input } and a bearer key
// → { data: [{ embedding, index }] }. The key travels only in the Authorization header.
import { z } from 'zod';

import { EmbedError } from './errors.js';
import { displayUrl, postJson } from './http.js';
import { createRemoteEmbedder, resolveTuning } from './remote.js';
import type { Embedder, OpenAiEmbedConfig } from './types.js';

const DEFAULT_BATCH_SIZE = 256;

const openAiAnswer = z.object({
  data: z.array(
    z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative() }),
  ),
});

/** Puts `data` back in input order; each index 0…count-1 must appear exactly once. */
function inInputOrder(
  data: readonly { embedding: number[]; index: number }[],
  count: number,
  where: string,
): number[][] {
  const out: (number[] | undefined)[] = new Array<number[] | undefined>(count);
  for (const item of data) {
    if (item.index >= count || out[item.index] !== undefined) {
      throw new EmbedError(
        'malformed',
        `embed: openai answer has a bad or repeated index ${item.index} (${where})`,
      );
    }
    out[item.index] = item.embedding;
  }
  if (data.length !== count) {
    throw new EmbedError(
      'malformed',
      `embed: openai returned ${data.length} vectors for ${count} texts (${where})`,
    );
  }
  return out as number[][];
}

/**
 * An embedder backed by any OpenAI-compatible `/embeddings` endpoint. `dims()` is learned from
 * the first answer. `embed` throws EmbedError (see {@link postJson}); its messages never contain
 * the API key, even if the server echoes it.
 */
export function createOpenAiEmbedder(config: Omit<OpenAiEmbedConfig, 'provider'>): Embedder {
  const tuning = resolveTuning(config, DEFAULT_BATCH_SIZE);
  const url = `${config.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const where = displayUrl(url);
  const headers: Record<string, string> =
    config.apiKey === undefined ? {} : { authorization: `Bearer ${config.apiKey}` };
  return createRemoteEmbedder({
    model: `openai:${config.model}`,
    label: 'openai',
    batchSize: tuning.batchSize,
    async request(batch) {
      const answer = await postJson({
        ...tuning,
        label: 'openai',
        url,
        headers,
        body: { model: config.model, input: batch },
        secrets: config.apiKey === undefined ? [] : [config.apiKey],
      });
      const parsed = openAiAnswer.safeParse(answer);
      if (!parsed.success) {
        throw new EmbedError(
          'malformed',
          `embed: openai answer lacks data[].embedding/index (${where})`,
        );
      }
      return inInputOrder(parsed.data.data, batch.length, where);
    },
  });
}
