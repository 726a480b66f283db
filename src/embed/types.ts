// The one embedding interface every provider implements, and the configuration that picks one.
// Types only: no provider code, no I/O.

/**
 * How urgent one embed call is. `interactive` (the default: a query a caller waits for) goes
 * ahead of `background` work (the backlogs) wherever the provider queues; an in-process model
 * also cuts background calls into short slices so a query waits at most for one slice.
 */
export type EmbedPriority = 'interactive' | 'background';

export interface EmbedCallOptions {
  priority?: EmbedPriority;
}

/** Turns text into unit-length vectors in one vector space. */
export interface Embedder {
  /**
   * Stable id of the vector space, e.g. `local:use-lite-en-512`, `ollama:nomic-embed-text`,
   * `openai:text-embedding-3-small`. Vectors from different ids are never mixed.
   */
  readonly model: string;
  /** Dimensions when known (local: 512; remote: learned from the first response). */
  dims(): number | undefined;
  /** Starts loading in the background (no-op for remote providers); never throws. */
  warm(): void;
  /** True once it can embed without a cold start. */
  isReady(): boolean;
  /**
   * Embeds a batch; resolves unit-length vectors in input order, each with its own buffer.
   * An empty batch resolves `[]` without touching the provider.
   * @throws EmbedError when the provider is unreachable, slow, refuses, or answers nonsense.
   */
  embed(texts: readonly string[], options?: EmbedCallOptions): Promise<Float32Array[]>;
  /** Releases the provider (stops the local model's worker). Later `embed` calls reject. */
  close(): Promise<void>;
}

/** Values of `CAIRN_EMBEDDINGS`. */
export const EMBED_PROVIDERS = ['local', 'ollama', 'openai', 'none'] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

/** Tuning shared by the HTTP providers. Every field has a default. */
export interface RemoteTuning {
  /** Per-attempt deadline for one HTTP request, body included (default 30 000 ms). */
  timeoutMs?: number;
  /** Extra attempts after a 429, a 5xx or a network failure (default 3). Timeouts are final. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter (default 250 ms). */
  retryBaseMs?: number;
  /** Most texts sent in one request (defaults: ollama 32, openai 256). */
  batchSize?: number;
}

export interface LocalEmbedConfig {
  provider: 'local';
  /** Most texts per model call (default 16); smaller batches interleave better. */
  batchSize?: number;
}

export interface OllamaEmbedConfig extends RemoteTuning {
  provider: 'ollama';
  /** Base URL of the Ollama server, e.g. `http://127.0.0.1:11434`. */
  host: string;
  model: string;
}

export interface OpenAiEmbedConfig extends RemoteTuning {
  provider: 'openai';
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when present; never appears in errors. */
  apiKey?: string;
  model: string;
}

/** Which provider to build, and how. `none` means no embedder: callers use full-text search. */
export type EmbedConfig =
  { provider: 'none' } | LocalEmbedConfig | OllamaEmbedConfig | OpenAiEmbedConfig;
