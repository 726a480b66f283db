// inject_context never exceeds its budget: 100 seeded random cases, each its own corpus (1–24
// observations of random types, lengths, scripts and projects, told apart by a tag of their
// own) and its own budget (1 to 4,000 tokens, log-uniform), sometimes with a query and a type
// filter. Each block is counted again with the tokenizer; every observation considered is
// either in the block or left out with a reason.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type InjectedContext, OBSERVATION_TYPES } from '../../src/activity/observations/index.js';
import { createContextServer } from '../../src/mcp/index.js';
import { linkedClient, tempCore } from '../helpers.js';
import { createRng } from '../rng.js';
import { callContext, discoveryOf, FULL_ENV } from './fixtures.js';

const WORDS = [
  'migration',
  'index',
  'flaky',
  'retry',
  'cache',
  'parser',
  'deploy',
  'rollback',
  'timeout',
  'naïve',
  'Übergröße',
  '数据库',
  'ошибка',
  '🚀',
  'null',
  '{"a":1}',
  '\t',
  'x'.repeat(40),
];
const CASES = 100;

describe('inject_context: the budget holds across 100 random budgets and corpora', () => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const t = await tempCore({ embedder: null, provenance: discoveryOf(FULL_ENV, '/tmp') });
    client = await linkedClient(createContextServer(t.core));
    close = async () => {
      await client.close();
      await t.close();
    };
  });
  afterAll(() => close());

  it('never exceeds max_tokens and accounts for every observation', async () => {
    const rng = createRng(14_2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
    const text = (n: number) =>
      Array.from({ length: n }, () => (rng() < 0.08 ? '\n' : '') + pick(WORDS)).join(' ');
    let included = 0;
    let overBudget = 0;
    for (let c = 0; c < CASES; c += 1) {
      const tag = `case-${c}`;
      const count = 1 + Math.floor(rng() * 24);
      for (let i = 0; i < count; i += 1) {
        await callContext(client, 'store_memory', {
          resource: pick(OBSERVATION_TYPES),
          data: {
            content: `o${i} ${text(1 + Math.floor(rng() ** 2 * 400))}`,
            tags: [tag],
            ...(rng() < 0.2 ? { project_id: pick(['acme/app', 'other/proj']) } : {}),
          },
        });
      }
      const budget = Math.max(1, Math.round(Math.exp(rng() * Math.log(4000))));
      const args: Record<string, unknown> = { max_tokens: budget, tags: [tag] };
      if (rng() < 0.3) args['query'] = pick(WORDS.slice(0, 9));
      if (rng() < 0.3)
        args['observation_types'] = [pick(OBSERVATION_TYPES), pick(OBSERVATION_TYPES)];
      if (rng() < 0.5) args['project_id'] = 'acme/app';
      const { data, text: shown } = await callContext<InjectedContext>(
        client,
        'inject_context',
        args,
      );
      const where = `case ${c}: budget ${budget}, ${count} observations`;
      expect(countTokens(data.block), where).toBeLessThanOrEqual(budget);
      expect(data.tokens, where).toBe(countTokens(data.block));
      if (data.block !== '') expect(shown, where).toBe(data.block);
      expect(data.considered, where).toBe(count);
      const left = data.omitted.reduce((n, o) => n + o.count, 0);
      expect(data.included.length + left, where).toBe(count);
      for (const item of data.included) expect(data.block, where).toContain(item.id);
      included += data.included.length;
      overBudget += data.omitted.find((o) => o.reason === 'over_budget')?.count ?? 0;
    }
    // The cases exercise both sides of the budget.
    expect(included).toBeGreaterThan(50);
    expect(overBudget).toBeGreaterThan(50);
  }, 120_000);
});
