// Reads the embedding configuration from environment variables and validates it up front, so a
// typo fails at start with the variable's name rather than at the first search.
import { EmbedConfigError } from './errors.js';
import {
  type EmbedConfig,
  EMBED_PROVIDERS,
  type EmbedProvider,
  type RemoteTuning,
} from './types.js';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_OLLAMA_MODEL = 'nomic-embed-text';
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';

/** Treats unset and blank the same: a blank variable falls back to the default. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function provider(env: NodeJS.ProcessEnv): EmbedProvider {
  const raw = read(env, 'CAIRN_EMBEDDINGS');
  if (raw === undefined) return 'local';
  const found = EMBED_PROVIDERS.find((p) => p === raw.toLowerCase());
  if (found === undefined) {
    throw new EmbedConfigError(
      'CAIRN_EMBEDDINGS',
      `must be one of ${EMBED_PROVIDERS.join(', ')} (got ${JSON.stringify(raw)})`,
    );
  }
  return found;
}

/**
 * `raw` as an http(s) base URL without a trailing slash, or null when it is not one. Ollama's
 * own convention lets `OLLAMA_HOST` omit the scheme (`0.0.0.0:11434`), so a bare host gets
 * `http://`. Shared by every provider setting that names an endpoint.
 */
export function httpBaseUrl(raw: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.replace(/\/+$/, '');
}

/** The base URL variable `name` (else `fallback`). The value is not echoed: it may carry credentials. */
function baseUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const url = httpBaseUrl(read(env, name) ?? fallback);
  if (url === null) throw new EmbedConfigError(name, 'must be an http(s) URL');
  return url;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, max: number): number | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new EmbedConfigError(
      name,
      `must be a whole number from 1 to ${max} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

function tuning(env: NodeJS.ProcessEnv): RemoteTuning {
  const timeoutMs = positiveInt(env, 'CAIRN_EMBED_TIMEOUT_MS', 600_000);
  const batchSize = positiveInt(env, 'CAIRN_EMBED_BATCH_SIZE', 2048);
  return {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(batchSize === undefined ? {} : { batchSize }),
  };
}

/**
 * Builds an {@link EmbedConfig} from the environment:
 *
 * | Variable | Meaning | Default |
 * | --- | --- | --- |
 * | `CAIRN_EMBEDDINGS` | `local`, `ollama`, `openai` or `none` | `local` |
 * | `OLLAMA_HOST` | Ollama base URL | `http://127.0.0.1:11434` |
 * | `CAIRN_OLLAMA_MODEL` | Ollama embedding model | `nomic-embed-text` |
 * | `OPENAI_BASE_URL` | OpenAI-compatible base URL | `https://api.openai.com/v1` |
 * | `OPENAI_API_KEY` | bearer token; required for the default OpenAI URL | — |
 * | `CAIRN_OPENAI_EMBED_MODEL` | OpenAI embedding model | `text-embedding-3-small` |
 * | `CAIRN_EMBED_TIMEOUT_MS` | per-request deadline for remote providers | `30000` |
 * | `CAIRN_EMBED_BATCH_SIZE` | most texts per request or model call | per provider |
 *
 * Only the selected provider's variables are read.
 * @throws EmbedConfigError naming the first variable with an unusable value.
 */
export function embedConfigFromEnv(env: NodeJS.ProcessEnv = process.env): EmbedConfig {
  const chosen = provider(env);
  switch (chosen) {
    case 'none':
      return { provider: 'none' };
    case 'local': {
      const batchSize = positiveInt(env, 'CAIRN_EMBED_BATCH_SIZE', 2048);
      return { provider: 'local', ...(batchSize === undefined ? {} : { batchSize }) };
    }
    case 'ollama':
      return {
        provider: 'ollama',
        host: baseUrl(env, 'OLLAMA_HOST', DEFAULT_OLLAMA_HOST),
        model: read(env, 'CAIRN_OLLAMA_MODEL') ?? DEFAULT_OLLAMA_MODEL,
        ...tuning(env),
      };
    case 'openai':
      return openAiConfig(env);
  }
}

function openAiConfig(env: NodeJS.ProcessEnv): EmbedConfig {
  const url = baseUrl(env, 'OPENAI_BASE_URL', DEFAULT_OPENAI_BASE_URL);
  const apiKey = read(env, 'OPENAI_API_KEY');
  if (apiKey === undefined && new URL(url).hostname === 'api.openai.com') {
    throw new EmbedConfigError(
      'OPENAI_API_KEY',
      'is required when CAIRN_EMBEDDINGS=openai uses api.openai.com (set it, or set OPENAI_BASE_URL to a server that needs no key)',
    );
  }
  return {
    provider: 'openai',
    baseUrl: url,
    model: read(env, 'CAIRN_OPENAI_EMBED_MODEL') ?? DEFAULT_OPENAI_MODEL,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...tuning(env),
  };
}
