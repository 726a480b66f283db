// Every cairn-vault tool called once through whatever transport the caller connected (stdio,
// HTTP), in an order where each has something to act on: sync first, reads, lifecycle last.
// Each call must succeed (or, without an embedder, refuse as the vector tools do) and answer with
// the field its spec'd answer carries, so a transport that loses structuredContent, _meta or a
// tool fails here.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

import { textOf } from '../helpers.js';
import { fakeBd, type FakeBd } from './beads.js';

/** tool → arguments (beyond `vault`) and a field its structuredContent must have. */
const CALLS: readonly (readonly [string, Record<string, unknown>, string])[] = [
  ['list_vaults', {}, 'vaults'],
  ['status', {}, 'collections'],
  ['search', { query: 'dead letter queue' }, 'results'],
  ['vsearch', { query: 'food truck' }, 'results'],
  ['query', { query: 'why exponential backoff for retries' }, 'stages'],
  ['memory_retrieve', { query: 'why did we choose backoff' }, 'route'],
  ['intent_search', { query: 'why did we choose backoff' }, 'intent'],
  ['query_plan', { query: 'queue retries and the lunch truck' }, 'clauses'],
  ['memory_rank', { query: 'queue retries' }, 'items'],
  ['kg_query', { entity: 'exponential backoff' }, 'facts'],
  ['find_causal_links', { docid: 'decisions/queue.md' }, 'links'],
  ['build_graphs', {}, 'temporalTotal'],
  ['get', { file: 'notes/lunch.md' }, 'document'],
  ['multi_get', { pattern: 'decisions/*.md' }, 'documents'],
  ['find_similar', { file: 'decisions/queue.md' }, 'results'],
  ['timeline', { docid: 'decisions/queue.md' }, 'reference'],
  ['memory_evolution_status', { docid: 'decisions/queue.md' }, 'entries'],
  ['session_log', {}, 'sessions'],
  ['index_stats', {}, 'collections'],
  ['memory_stats', {}, 'collections'],
  ['memory_pin', { query: 'decisions/queue.md' }, 'action'],
  ['memory_snooze', { query: 'notes/lunch.md', until: '2099-01-01' }, 'until'],
  ['lifecycle_status', {}, 'archived'],
  ['lifecycle_sweep', {}, 'dryRun'],
  ['memory_forget', { query: 'research/backoff.md' }, 'target'],
  ['lifecycle_restore', { all: true }, 'restored'],
  ['reindex', {}, 'reports'],
  ['beads_sync', {}, 'unchanged'],
  ['diary_write', { entry: 'Checked every tool.' }, 'path'],
  ['diary_read', {}, 'entries'],
  ['profile', { rebuild: true }, 'static'],
];

/** Tools that need an embedder; without one they refuse with this text. */
const VECTOR_TOOLS = new Set(['vsearch', 'find_similar']);

/**
 * Syncs `root` into `vault`, then calls every other tool of cairn-vault once. `vectors` says
 * whether the server has an embedder (the vector tools answer, else refuse by name). beads_sync
 * runs the stand-in bd: `bd` when the caller put it on the server's PATH (a spawned server),
 * else one made here and put on this process's PATH for the pass.
 * @returns the names of the tools called (vault_sync included)
 */
export async function callEveryVaultTool(
  client: Client,
  vault: string,
  root: string,
  vectors: boolean,
  bd?: FakeBd,
): Promise<string[]> {
  const beads = bd ?? fakeBd();
  const restore = bd === undefined ? beads.onPath() : () => undefined;
  try {
    return await callAll(client, vault, root, vectors, beads.project);
  } finally {
    restore();
    if (bd === undefined) beads.cleanup();
  }
}

async function callAll(
  client: Client,
  vault: string,
  root: string,
  vectors: boolean,
  project: string,
): Promise<string[]> {
  const sync = await client.callTool({
    name: 'vault_sync',
    arguments: { vault, content_root: root },
  });
  expect(sync.isError, textOf(sync)).not.toBe(true);
  const called = ['vault_sync'];
  for (const [name, args, field] of CALLS) {
    const given = name === 'beads_sync' ? { project_path: project } : args;
    const r = await client.callTool({ name, arguments: { ...given, vault } });
    called.push(name);
    if (!vectors && VECTOR_TOOLS.has(name)) {
      expect(r.isError, name).toBe(true);
      expect(textOf(r)).toMatch(new RegExp(`^${name} needs an embedder`));
      continue;
    }
    expect(r.isError, `${name}: ${textOf(r)}`).not.toBe(true);
    expect(textOf(r).length, name).toBeGreaterThan(0);
    expect(r.structuredContent, name).toHaveProperty(field);
  }
  return called;
}
