import { describe, expect, it } from 'vitest';

import { embedConfigFromEnv } from './config.js';
import { createEmbedder } from './embedder.js';
import { EmbedConfigError } from './errors.js';
import { LOCAL_MODEL_ID } from './local.js';

function configError(env: NodeJS.ProcessEnv): EmbedConfigError {
  try {
    embedConfigFromEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(EmbedConfigError);
    return err as EmbedConfigError;
  }
  throw new Error('expected an EmbedConfigError');
}

describe('embedConfigFromEnv', () => {
  it('defaults to the local model', () => {
    expect(embedConfigFromEnv({})).toEqual({ provider: 'local' });
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: '  ' })).toEqual({ provider: 'local' });
  });

  it('accepts each provider, case-insensitively', () => {
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'none' })).toEqual({ provider: 'none' });
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'LOCAL' }).provider).toBe('local');
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'Ollama' }).provider).toBe('ollama');
  });

  it('rejects an unknown provider, naming the variable and the choices', () => {
    const err = configError({ CAIRN_EMBEDDINGS: 'foo' });
    expect(err.variable).toBe('CAIRN_EMBEDDINGS');
    expect(err.code).toBe('invalid_config');
    expect(err.message).toBe(
      'CAIRN_EMBEDDINGS must be one of local, ollama, openai, none (got "foo")',
    );
  });

  it('fills in ollama defaults', () => {
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'ollama' })).toEqual({
      provider: 'ollama',
      host: 'http://127.0.0.1:11434',
      model: 'nomic-embed-text',
    });
  });

  it('reads ollama variables; a bare OLLAMA_HOST gets http://', () => {
    const env = {
      CAIRN_EMBEDDINGS: 'ollama',
      OLLAMA_HOST: 'gpu-box:11434/',
      CAIRN_OLLAMA_MODEL: 'mxbai-embed-large',
      CAIRN_EMBED_TIMEOUT_MS: '5000',
      CAIRN_EMBED_BATCH_SIZE: '8',
    };
    expect(embedConfigFromEnv(env)).toEqual({
      provider: 'ollama',
      host: 'http://gpu-box:11434',
      model: 'mxbai-embed-large',
      timeoutMs: 5000,
      batchSize: 8,
    });
  });

  it('rejects a non-http OLLAMA_HOST without echoing it', () => {
    const err = configError({ CAIRN_EMBEDDINGS: 'ollama', OLLAMA_HOST: 'ftp://secret@host' });
    expect(err.variable).toBe('OLLAMA_HOST');
    expect(err.message).toBe('OLLAMA_HOST must be an http(s) URL');
  });

  it('requires OPENAI_API_KEY for api.openai.com', () => {
    const err = configError({ CAIRN_EMBEDDINGS: 'openai' });
    expect(err.variable).toBe('OPENAI_API_KEY');
    expect(err.message).toMatch(/^OPENAI_API_KEY is required/);
  });

  it('fills in openai defaults and keeps the key out of the message path', () => {
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'openai', OPENAI_API_KEY: 'sk-test' })).toEqual({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      apiKey: 'sk-test',
    });
  });

  it('allows a keyless OpenAI-compatible server', () => {
    const env = {
      CAIRN_EMBEDDINGS: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1/',
      CAIRN_OPENAI_EMBED_MODEL: 'bge-small',
    };
    expect(embedConfigFromEnv(env)).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:1234/v1',
      model: 'bge-small',
    });
  });

  it('rejects bad numbers, naming the variable', () => {
    for (const value of ['0', '-5', '1.5', 'soon', '99999999']) {
      const err = configError({ CAIRN_EMBEDDINGS: 'ollama', CAIRN_EMBED_TIMEOUT_MS: value });
      expect(err.variable).toBe('CAIRN_EMBED_TIMEOUT_MS');
    }
    const err = configError({ CAIRN_EMBED_BATCH_SIZE: 'many' });
    expect(err.variable).toBe('CAIRN_EMBED_BATCH_SIZE');
  });

  it('ignores variables of providers that are not selected', () => {
    expect(embedConfigFromEnv({ CAIRN_EMBEDDINGS: 'none', OLLAMA_HOST: 'ftp://x' })).toEqual({
      provider: 'none',
    });
  });
});

describe('createEmbedder', () => {
  it('returns null for none', () => {
    expect(createEmbedder({ provider: 'none' })).toBeNull();
  });

  it('builds each provider without loading or connecting', async () => {
    const local = createEmbedder({ provider: 'local' });
    expect(local?.model).toBe(LOCAL_MODEL_ID);
    expect(local?.isReady()).toBe(false);
    const ollama = createEmbedder({ provider: 'ollama', host: 'http://127.0.0.1:9', model: 'm' });
    expect(ollama?.model).toBe('ollama:m');
    expect(ollama?.dims()).toBeUndefined();
    const openai = createEmbedder({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9',
      model: 'e',
    });
    expect(openai?.model).toBe('openai:e');
    await Promise.all([local?.close(), ollama?.close(), openai?.close()]);
  });

  it('rejects out-of-range tuning given in code', () => {
    expect(() =>
      createEmbedder({ provider: 'ollama', host: 'http://x', model: 'm', batchSize: 0 }),
    ).toThrow(RangeError);
  });
});
