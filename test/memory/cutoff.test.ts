// The dashboard's relevance cut-off with the real local model, over REST on a real HTTP service:
// 30 notes in 6 topics; a query about one topic marks the unrelated vector-only neighbours weak
// (`weak`, `cosine`, `cutoff.hidden`) while its related notes stay, and memory_search over MCP
// answers exactly as before (same hits, same order, no cut-off fields).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createLocalEmbedder } from '../../src/embed/index.js';
import type { SearchResult } from '../../src/memory/index.js';
import { httpSessions, type Running, TOKEN } from '../http/helpers.js';
import { NOTES } from './cutoff-notes.js';
import { save, search } from './fixtures.js';

const sessions = httpSessions();
let svc: Running;

async function rest(query: string, mode = 'hybrid'): Promise<SearchResult> {
  const q = new URLSearchParams({ query, mode });
  const res = await fetch(`${svc.base}/api/memory/search?${q}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as SearchResult;
}

const strong = (r: SearchResult): string[] =>
  r.results.filter((h) => h.weak !== true).map((h) => h.title);

describe('relevance cut-off (local model, REST)', () => {
  beforeAll(async () => {
    svc = await sessions.start({}, { embedder: createLocalEmbedder() });
    const mcp = await sessions.connect(`${svc.base}/api/mcp/memory`, TOKEN);
    for (const [, title, content] of NOTES) await save(mcp.client, { title, content });
    await svc.core.embedWorker?.drain();
  }, 180_000);
  afterAll(() => sessions.closeAll());

  it('keeps the related notes of a query and marks the unrelated ones weak', async () => {
    const deploys = await rest('when do production deploys happen');
    expect(deploys.results).toHaveLength(10);
    expect(strong(deploys)).toEqual(['Deploy window', 'Deploy freeze', 'Rollback steps']);
    expect(deploys.cutoff).toEqual({ fusedRatio: 0.25, cosineRatio: 0.8, hidden: 7 });
    const vectorOnly = deploys.results.filter((h) => h.ranks.fts === null);
    expect(vectorOnly.every((h) => h.weak === true && typeof h.cosine === 'number')).toBe(true);

    const migrations = await rest('database migrations');
    expect(strong(migrations)).toEqual([
      'Staging database',
      'Schema migrations',
      'Backups',
      'Connection pool', // vector only, but close to the best cosine: kept
      'Slow query log',
    ]);
    // No word in common: the nearest note stays, the rest of the neighbours are weak.
    const espresso = await rest('espresso maker maintenance');
    expect(strong(espresso)).toEqual(['Coffee machine']);
    expect(strong(await rest('espresso maker maintenance', 'vector'))).toEqual(['Coffee machine']);
    // Full text is never cut: every hit matched a query term.
    expect((await rest('invoices', 'fts')).cutoff).toBeUndefined();
  });

  it('leaves memory_search over MCP as it was: same hits, same order, no cut-off fields', async () => {
    const mcp = await sessions.connect(`${svc.base}/api/mcp/memory`, TOKEN);
    const query = 'when do production deploys happen';
    const tool = await search(mcp.client, { query, mode: 'hybrid' });
    const page = await rest(query);
    expect(tool.results.map((h) => h.id)).toEqual(page.results.map((h) => h.id));
    expect(tool.results.map((h) => h.score)).toEqual(page.results.map((h) => h.score));
    expect(JSON.stringify(tool)).not.toMatch(/"weak"|"cosine"|"cutoff"/);
  });
});
