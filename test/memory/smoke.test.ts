import { afterEach, describe, expect, it } from 'vitest';

import { createMemoryServer } from '../../src/mcp/index.js';
import { callErr, callOk, linkedClient, tempCore } from '../helpers.js';

describe('memory smoke', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('saves, dedupes, scrubs and searches three ways with the local model', async () => {
    const t = await tempCore();
    close = t.close;
    const client = await linkedClient(createMemoryServer(t.core));
    const a = await callOk<{ saved: string; fact: { id: string } }>(client, 'memory_save', {
      title: 'pets',
      content: 'The user has a cat named Miso who sleeps on the rug.',
    });
    expect(a.saved).toBe('fact');
    const dup = await callOk<{ deduplicated?: boolean }>(client, 'memory_save', {
      title: 'pets',
      content: 'The user  has a cat named Miso who sleeps on the rug.',
    });
    expect(dup.deduplicated).toBe(true);
    await callOk(client, 'memory_save', {
      title: 'tax',
      content: 'Quarterly tax filing is due in April.',
    });
    const secret = await callErr(client, 'memory_save', {
      title: 'k',
      content: 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
    });
    expect(secret.text).toMatch(/declined/);
    const fts = await callOk<{ results: { id: string }[] }>(client, 'memory_search', {
      query: 'cat "NEAR* (',
    });
    expect(fts.results[0]?.id).toBe(a.fact.id);
    await t.core.embedWorker?.drain();
    const vec = await callOk<{ results: { id: string; scoreBasis: string }[] }>(
      client,
      'memory_search',
      { query: 'feline pet', mode: 'vector' },
    );
    expect(vec.results[0]?.id).toBe(a.fact.id);
    const hyb = await callOk<{ results: { id: string; ranks: unknown }[] }>(
      client,
      'memory_search',
      { query: 'kitty', mode: 'hybrid' },
    );
    expect(hyb.results[0]?.id).toBe(a.fact.id);
    const p1 = await callOk<{ procedure: { version: number } }>(client, 'memory_save', {
      procedureName: 'deploy',
      content: 'run make deploy',
    });
    const p2 = await callOk<{ procedure: { version: number; id: string } }>(client, 'memory_save', {
      procedureName: 'deploy',
      content: 'run make release then deploy',
    });
    expect([p1.procedure.version, p2.procedure.version]).toEqual([1, 2]);
    const got = await callOk<{ versions: unknown[] }>(client, 'memory_get', {
      id: p2.procedure.id,
    });
    expect(got.versions).toHaveLength(2);
    const browse = await callOk<{ items: { kind: string }[] }>(client, 'memory_browse', {});
    expect(browse.items.filter((i) => i.kind === 'procedure')).toHaveLength(1);
  });
});
