// Embedding providers behind one interface: local model (default), Ollama, OpenAI-compatible,
// or none; and the background backlog loop every corpus embeds with. A domain module: imports
// nothing from the façades, the core, the SDK or the driver.
export {
  type BacklogEmbedder,
  type BacklogItem,
  createEmbedBacklog,
  type EmbedBacklog,
  type EmbedBacklogOptions,
  type RunOnce,
  type EmbedBacklogSource,
} from './backlog.js';
export {
  DEFAULT_OLLAMA_HOST,
  DEFAULT_OLLAMA_MODEL,
  DEFAULT_OPENAI_BASE_URL,
  httpBaseUrl,
  DEFAULT_OPENAI_MODEL,
  embedConfigFromEnv,
} from './config.js';
export { createEmbedder, type EmbedderOptions } from './embedder.js';
export { EmbedConfigError, EmbedError, type EmbedFailure } from './errors.js';
export {
  createLocalEmbedder,
  LOCAL_DIMS,
  LOCAL_MODEL_ID,
  type LocalEmbedder,
  type LocalEmbedderOptions,
  type LocalStatus,
} from './local.js';
export type { ModelModules } from './local-worker.js';
export { createOllamaEmbedder } from './ollama.js';
export { createOpenAiEmbedder } from './openai.js';
export {
  EMBED_PROVIDERS,
  type EmbedCallOptions,
  type EmbedConfig,
  type Embedder,
  type EmbedPriority,
  type EmbedProvider,
  type LocalEmbedConfig,
  type OllamaEmbedConfig,
  type OpenAiEmbedConfig,
  type RemoteTuning,
} from './types.js';
