// Operator edits without a transport: setTags scrubs and dedupes tags and keeps full text in
// step; remove soft-deletes (a procedure with all its versions); both are scoped like get.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { NotFoundError } from '../shared/errors.js';
import { openSqliteStore, type Store } from '../store/index.js';
import { createMemory, type Memory } from './memory.js';
import type { MemoryScrubber, Scope } from './model.js';

const scrubber: MemoryScrubber = {
  scrub: (text) =>
    Promise.resolve({
      text: text.replace(/SECRET-\d+/g, '[REDACTED:test]'),
      onlySentinels: false,
      findings: [],
    }),
};

const OTHER_SCOPES: Scope[] = [
  {},
  { teamId: 't1' },
  { teamId: 't1', agentId: 'a2' },
  { teamId: 't2', agentId: 'a1' },
];
const OWN: Scope = { teamId: 't1', agentId: 'a1' };

describe('memory edits', () => {
  let dir: string;
  let store: Store;
  let memory: Memory;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-memory-edit-'));
    store = await openSqliteStore(join(dir, 'cairn.db'));
    memory = createMemory(store, { scrubber });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function fact(scope: Scope = OWN): Promise<string> {
    const saved = await memory.save({ title: 'deploys', content: 'ship on tuesdays', scope });
    return saved.saved === 'fact' ? saved.fact.id : '';
  }

  it('setTags scrubs, dedupes and makes the new tags searchable', async () => {
    const id = await fact();
    const item = await memory.setTags(id, ['SECRET-1', 'release', 'release'], OWN);
    expect(item.tags).toEqual(['[REDACTED:test]', 'release']);
    expect((await memory.get(id, OWN)).item.tags).toEqual(['[REDACTED:test]', 'release']);
    const hits = await memory.search({ query: 'release', mode: 'fts', scope: OWN });
    expect(hits.results.map((h) => h.id)).toEqual([id]);
  });

  it('remove soft-deletes: get, search and browse no longer see it', async () => {
    const id = await fact();
    expect(await memory.remove(id, OWN)).toEqual({ id, removed: 1 });
    await expect(memory.get(id, OWN)).rejects.toBeInstanceOf(NotFoundError);
    expect((await memory.search({ query: 'tuesdays', mode: 'fts', scope: OWN })).results).toEqual(
      [],
    );
    expect(await memory.browse({ scope: OWN })).toEqual([]);
    const row = await store.get<{ deleted_at: number | null }>(
      'SELECT deleted_at FROM memory_items WHERE id = ?',
      [id],
    );
    expect(row?.deleted_at).toEqual(expect.any(Number));
    await expect(memory.remove(id, OWN)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('remove takes a procedure with all its versions', async () => {
    await memory.save({ procedureName: 'deploy', content: 'v1', scope: {} });
    const v2 = await memory.save({ procedureName: 'deploy', content: 'v2', scope: {} });
    const id = v2.saved === 'procedure' ? v2.procedure.id : '';
    expect((await memory.get(id, {})).versions).toHaveLength(2);
    expect((await memory.remove(id, {})).removed).toBe(2);
    expect(await memory.browse({ scope: {} })).toEqual([]);
  });

  it('both are scoped exactly like get: NotFoundError outside the scope', async () => {
    const id = await fact();
    for (const scope of OTHER_SCOPES) {
      const label = JSON.stringify(scope);
      await expect(memory.setTags(id, ['x'], scope), label).rejects.toBeInstanceOf(NotFoundError);
      await expect(memory.remove(id, scope), label).rejects.toBeInstanceOf(NotFoundError);
    }
    expect((await memory.get(id, OWN)).item.tags).toEqual([]);
    const global = await fact({});
    expect((await memory.setTags(global, ['g'], OWN)).tags).toEqual(['g']);
  });
});
