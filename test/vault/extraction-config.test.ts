// CAIRN_VAULT_EXTRACTION: deterministic by default (no model, no backlog), `openai`/`ollama`
// or `openai:<model>` with the other stages' _URL, _MODEL, _API_KEY and _TIMEOUT_MS, and a bad
// value refused at start naming the variable.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { vaultExtractionFromEnv } from '../../src/vault/index.js';
import { tempCore } from '../helpers.js';

afterEach(() => vi.unstubAllEnvs());

describe('vaultExtractionFromEnv', () => {
  it('is null (deterministic) unless a model is named', () => {
    expect(vaultExtractionFromEnv({})).toBeNull();
    expect(vaultExtractionFromEnv({ CAIRN_VAULT_EXTRACTION: ' Deterministic ' })).toBeNull();
  });

  it('reads kind:model, URL, key and timeout (30 s by default)', () => {
    expect(
      vaultExtractionFromEnv({
        CAIRN_VAULT_EXTRACTION: 'openai:qwen2.5-7b',
        CAIRN_VAULT_EXTRACTION_URL: 'http://127.0.0.1:8080/v1/',
        CAIRN_VAULT_EXTRACTION_API_KEY: 'k',
      }),
    ).toEqual({
      kind: 'openai',
      url: 'http://127.0.0.1:8080/v1',
      model: 'qwen2.5-7b',
      apiKey: 'k',
      timeoutMs: 30_000,
    });
    expect(
      vaultExtractionFromEnv({
        CAIRN_VAULT_EXTRACTION: 'ollama',
        CAIRN_VAULT_EXTRACTION_MODEL: 'llama3.1',
        CAIRN_VAULT_EXTRACTION_TIMEOUT_MS: '90000',
      }),
    ).toEqual({
      kind: 'ollama',
      url: 'http://127.0.0.1:11434',
      model: 'llama3.1',
      timeoutMs: 90_000,
    });
  });

  it.each([
    [
      { CAIRN_VAULT_EXTRACTION: 'gpt' },
      /^CAIRN_VAULT_EXTRACTION must be one of deterministic, openai, ollama/,
    ],
    [{ CAIRN_VAULT_EXTRACTION: 'openai:' }, /^CAIRN_VAULT_EXTRACTION names no model/],
    [{ CAIRN_VAULT_EXTRACTION: 'deterministic:x' }, /^CAIRN_VAULT_EXTRACTION takes no model/],
    [{ CAIRN_VAULT_EXTRACTION: 'openai' }, /^CAIRN_VAULT_EXTRACTION_API_KEY is required/],
    [
      { CAIRN_VAULT_EXTRACTION: 'ollama', CAIRN_VAULT_EXTRACTION_TIMEOUT_MS: '0' },
      /^CAIRN_VAULT_EXTRACTION_TIMEOUT_MS must be a whole number/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => vaultExtractionFromEnv(env)).toThrow(message);
  });

  it('createCore refuses a bad value at start and builds no backlog without a model', async () => {
    vi.stubEnv('CAIRN_VAULT_EXTRACTION', 'bogus');
    await expect(tempCore()).rejects.toThrow(/CAIRN_VAULT_EXTRACTION must be one of/);
    vi.stubEnv('CAIRN_VAULT_EXTRACTION', '');
    const t = await tempCore();
    try {
      expect(t.core.vaultExtractWorker).toBeNull();
      expect(t.core.vault.extraction).toBeNull();
    } finally {
      await t.close();
    }
  });
});
