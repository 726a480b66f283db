// memory.search in vector mode through the memory MCP server on PostgreSQL: the same facts saved
// and embedded on PostgreSQL and on SQLite come back in the same order with the same cosine
// scores, scoped to the caller's team. (Hybrid also needs the text side of the index.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  hashEmbedder,
  type MemorySession,
  memorySession,
  save,
  search,
} from '../memory/fixtures.js';
import { pgAdminUrl } from '../pg-databases.js';

const FACTS: ReadonlyArray<[string, string, string]> = [
  ['red', 'deploys', 'production deploys happen on tuesdays after the checklist'],
  ['red', 'backups', 'backups are copied nightly to an offsite bucket'],
  ['red', 'ci', 'the ci pipeline fails when the lockfile is stale'],
  ['red', 'coffee', 'the office coffee machine needs descaling'],
  ['blue', 'deploys-blue', 'blue team deploys happen on fridays after the checklist'],
  ['blue', 'lunch', 'order lunch without nuts'],
];

const QUERIES = ['when do deploys happen', 'nightly bucket copies', 'checklist after deploys'];

async function seeded(dbUrl?: string): Promise<MemorySession> {
  const s = await memorySession({
    embedder: hashEmbedder('test:hash-a', 32),
    ...(dbUrl === undefined ? {} : { dbUrl }),
  });
  for (const [team, title, content] of FACTS)
    await save(s.client, { title, content, scopeTeamId: team });
  await s.core.embedWorker?.drain();
  expect(await s.core.embedWorker?.pending()).toBe(0);
  return s;
}

describe('memory vector search on PostgreSQL', () => {
  let pg: MemorySession;
  let lite: MemorySession;
  beforeAll(async () => {
    expect(pgAdminUrl()).toBeDefined();
    pg = await seeded();
    lite = await seeded('');
    expect(pg.core.store.dialect).toBe('postgres');
    expect(lite.core.store.dialect).toBe('sqlite');
  });
  afterAll(async () => {
    await pg.close();
    await lite.close();
  });

  it('ranks and scores as SQLite does, within the caller’s team', async () => {
    for (const query of QUERIES)
      for (const team of ['red', 'blue']) {
        const args = { query, mode: 'vector', scopeTeamId: team, limit: 5 };
        const want = await search(lite.client, args);
        const got = await search(pg.client, args);
        expect(want.results.length, query).toBeGreaterThan(0);
        expect(got.degraded).toBeUndefined();
        expect(got.results.map((r) => r.title)).toEqual(want.results.map((r) => r.title));
        got.results.forEach((r, i) => {
          expect(r.scoreBasis).toBe('vector-cosine');
          expect(Math.abs(r.score - (want.results[i]?.score ?? NaN))).toBeLessThan(1e-6);
        });
      }
  });
});
