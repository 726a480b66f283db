// CAIRN_VAULT_EXPANSION / CAIRN_VAULT_RERANK: the defaults, validation naming the variable at
// start (createCore refuses), and the configured stages reaching the cairn-vault tools.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createQueryStages, vaultStagesFromEnv } from '../../src/vault/index.js';
import { tempCore } from '../helpers.js';
import { callVault, vaultSetup } from './fixtures.js';
import { loopback, ollamaChat } from './loopback.js';

afterEach(() => vi.unstubAllEnvs());

describe('vaultStagesFromEnv', () => {
  it('defaults to PRF and the feature reranker (offline)', () => {
    expect(vaultStagesFromEnv({})).toEqual({
      expansion: { kind: 'prf' },
      rerank: { kind: 'features' },
    });
    expect(vaultStagesFromEnv({ CAIRN_VAULT_EXPANSION: ' NONE ' }).expansion).toEqual({
      kind: 'none',
    });
  });

  it('reads URL, model, key and timeout, falling back to the embedders’ shared variables', () => {
    const c = vaultStagesFromEnv({
      CAIRN_VAULT_EXPANSION: 'openai',
      OPENAI_API_KEY: 'sk-x',
      CAIRN_VAULT_RERANK: 'ollama',
      OLLAMA_HOST: '10.0.0.2:11434',
      CAIRN_VAULT_RERANK_MODEL: 'qwen2.5',
      CAIRN_VAULT_RERANK_TIMEOUT_MS: '800',
    });
    expect(c.expansion).toEqual({
      kind: 'openai',
      url: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-x',
      timeoutMs: 5000,
    });
    expect(c.rerank).toEqual({
      kind: 'ollama',
      url: 'http://10.0.0.2:11434',
      model: 'qwen2.5',
      timeoutMs: 800,
    });
    const r = vaultStagesFromEnv({
      CAIRN_VAULT_RERANK: 'openai',
      CAIRN_VAULT_RERANK_URL: 'http://127.0.0.1:8080/v1/',
    });
    expect(r.rerank).toEqual({ kind: 'openai', url: 'http://127.0.0.1:8080/v1', timeoutMs: 5000 });
  });

  it('names the variable of every unusable value', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [
        { CAIRN_VAULT_EXPANSION: 'gpt' },
        /^CAIRN_VAULT_EXPANSION must be one of none, prf, openai, ollama/,
      ],
      [
        { CAIRN_VAULT_RERANK: 'cohere' },
        /^CAIRN_VAULT_RERANK must be one of features, openai, ollama/,
      ],
      [{ CAIRN_VAULT_RERANK: 'openai' }, /^CAIRN_VAULT_RERANK_URL is required/],
      [{ CAIRN_VAULT_EXPANSION: 'openai' }, /^CAIRN_VAULT_EXPANSION_API_KEY is required/],
      [
        { CAIRN_VAULT_EXPANSION: 'ollama', CAIRN_VAULT_EXPANSION_URL: 'ftp://x' },
        /^CAIRN_VAULT_EXPANSION_URL must be an http\(s\) URL/,
      ],
      [
        { CAIRN_VAULT_RERANK: 'ollama', CAIRN_VAULT_RERANK_TIMEOUT_MS: '0' },
        /^CAIRN_VAULT_RERANK_TIMEOUT_MS must be a whole number/,
      ],
    ];
    for (const [env, message] of bad) expect(() => vaultStagesFromEnv(env)).toThrow(message);
  });

  it('createCore refuses a bad value at start', async () => {
    vi.stubEnv('CAIRN_VAULT_RERANK', 'bogus');
    await expect(tempCore()).rejects.toThrow(/^CAIRN_VAULT_RERANK must be one of/);
  });
});

describe('configured stages through cairn-vault', () => {
  it('query and memory_retrieve report the provider that ran', async () => {
    const server = await loopback(() =>
      ollamaChat('{"queries": ["dead letter queue drained daily"]}'),
    );
    const stages = createQueryStages(
      vaultStagesFromEnv({
        CAIRN_VAULT_EXPANSION: 'ollama',
        CAIRN_VAULT_EXPANSION_URL: server.url,
        CAIRN_VAULT_EXPANSION_MODEL: 'tiny',
      }),
    );
    const v = await vaultSetup({ vaultStages: stages });
    try {
      await v.sync();
      const q = await callVault<{ stages: { expansion: string; rerank: string } }>(
        v.client,
        'query',
        {
          query: 'queue retries',
          intent: 'operations',
        },
      );
      expect(q.data.stages).toMatchObject({
        expansion: 'ollama:tiny: 1 query',
        rerank: 'features',
      });
      const m = await callVault<{ detail: { stages: { expansion: string } } }>(
        v.client,
        'memory_retrieve',
        {
          query: 'queue retries backoff',
          mode: 'hybrid',
        },
      );
      expect(m.data.detail.stages.expansion).toBe('ollama:tiny: 1 query');
      expect(server.seen).toHaveLength(2);
      expect(server.seen[0]?.path).toBe('/api/chat');
    } finally {
      await v.close();
      await server.close();
    }
  });
});
