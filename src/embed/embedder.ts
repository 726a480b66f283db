// Picks the provider named by the configuration. The only place that knows every provider.
import { createLocalEmbedder, type LocalEmbedderOptions } from './local.js';
import { createOllamaEmbedder } from './ollama.js';
import { createOpenAiEmbedder } from './openai.js';
import type { EmbedConfig, Embedder } from './types.js';

/** Process-level wiring that does not come from the environment. */
export interface EmbedderOptions {
  /** Where the local model's console output goes (default `process.stderr`). */
  diagnostics?: LocalEmbedderOptions['diagnostics'];
}

/**
 * Builds the configured embedder, or `null` for `none` (callers fall back to full-text search).
 * Cheap and side-effect free: nothing loads or connects until `warm()` or `embed()`.
 * @throws RangeError when a numeric option given in code is out of range.
 */
export function createEmbedder(
  config: EmbedConfig,
  options: EmbedderOptions = {},
): Embedder | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'local':
      return createLocalEmbedder({
        ...(config.batchSize === undefined ? {} : { batchSize: config.batchSize }),
        ...(options.diagnostics === undefined ? {} : { diagnostics: options.diagnostics }),
      });
    case 'ollama':
      return createOllamaEmbedder(config);
    case 'openai':
      return createOpenAiEmbedder(config);
  }
}
