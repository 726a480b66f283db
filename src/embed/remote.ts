// The Embedder shell shared by the HTTP providers: batching, dimension learning and checks,
// normalisation. A provider supplies only "send this batch, give me raw vectors in order".
import { EmbedError } from './errors.js';
import type { Embedder, RemoteTuning } from './types.js';
import { inBatches, prepareTexts, toUnitVectors } from './vectors.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_MS = 250;

/** Tuning with every default filled in. */
export type ResolvedTuning = Required<RemoteTuning>;

/** Fills in defaults and rejects nonsense values given in code (env values are checked earlier). */
export function resolveTuning(tuning: RemoteTuning, defaultBatchSize: number): ResolvedTuning {
  const resolved = {
    timeoutMs: tuning.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: tuning.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryBaseMs: tuning.retryBaseMs ?? DEFAULT_RETRY_BASE_MS,
    batchSize: tuning.batchSize ?? defaultBatchSize,
  };
  for (const [key, value] of Object.entries(resolved)) {
    const min = key === 'timeoutMs' || key === 'batchSize' ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < min) {
      throw new RangeError(`embed: ${key} must be an integer ≥ ${min} (got ${value})`);
    }
  }
  return resolved;
}

export interface RemoteSpec {
  /** Vector-space id, e.g. `openai:text-embedding-3-small`. */
  model: string;
  /** Provider name for messages. */
  label: string;
  batchSize: number;
  /** Sends one batch; resolves one raw vector per text, in input order. */
  request(batch: string[]): Promise<readonly ArrayLike<number>[]>;
}

/** Wraps a provider's batch request in the {@link Embedder} contract. */
export function createRemoteEmbedder(spec: RemoteSpec): Embedder {
  let dims: number | undefined;
  let closed = false;

  async function embedBatch(batch: string[]): Promise<Float32Array[]> {
    const raw = await spec.request(batch);
    const vectors = toUnitVectors(raw, { count: batch.length, dims, label: spec.label });
    dims ??= vectors[0]?.length;
    return vectors;
  }

  return {
    model: spec.model,
    dims: () => dims,
    warm: () => undefined,
    isReady: () => !closed,
    async embed(texts) {
      if (closed)
        throw new EmbedError('unavailable', `embed: the ${spec.label} embedder is closed`);
      if (texts.length === 0) return [];
      return inBatches(prepareTexts(texts), spec.batchSize, embedBatch);
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
