// Importing the official memory server's file: counts of what was read, new and already
// present; a dry run writes nothing; a rerun adds nothing; a bad line stops the whole import.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../store/index.js';
import { importMemoryFile, parseMemoryFile } from './import.js';
import { createGraphService, type GraphService } from './service.js';

let store: Store;
let graph: GraphService;
beforeEach(async () => {
  store = await openSqliteStore(':memory:');
  graph = createGraphService(store);
});
afterEach(() => store.close());

const FILE = [
  '{"type":"entity","name":"Ada","entityType":"person","observations":["a","b","a"]}',
  '{"type":"relation","from":"Ada","to":"Bob","relationType":"knows"}',
  '',
  '{"type":"something-else"}',
  '{"type":"entity","name":"Bob","entityType":"person","observations":[]}',
].join('\n');

describe('server-memory import', () => {
  it('counts, dry-runs without writing, imports, and adds nothing the second time', async () => {
    const parsed = parseMemoryFile(FILE);
    expect(parsed.skipped).toBe(1);
    const dry = await importMemoryFile(store, 'default', parsed, { dryRun: true });
    expect(dry).toEqual({
      entities: { read: 2, new: 2, present: 0 },
      relations: { read: 1, new: 1, present: 0 },
      observations: { read: 3, new: 3, present: 0 },
    });
    expect(await graph.readGraph('default')).toEqual({ entities: [], relations: [] });
    expect(await importMemoryFile(store, 'default', parsed)).toEqual(dry);
    const again = await importMemoryFile(store, 'default', parsed);
    expect(again.entities).toEqual({ read: 2, new: 0, present: 2 });
    expect(again.relations).toEqual({ read: 1, new: 0, present: 1 });
    expect(again.observations).toEqual({ read: 3, new: 0, present: 3 });
    const read = await graph.readGraph('default');
    expect(read.entities[0]).toEqual({
      name: 'Ada',
      entityType: 'person',
      observations: ['a', 'b', 'a'],
    });
    expect(read.relations).toEqual([{ from: 'Ada', to: 'Bob', relationType: 'knows' }]);
    expect((await graph.searchNodes('default', 'perso')).entities).toHaveLength(2);
  });

  it('merges observations into an entity that exists', async () => {
    await graph.createEntities('g', [{ name: 'Ada', entityType: 'x', observations: ['a'] }]);
    const counts = await importMemoryFile(store, 'g', parseMemoryFile(FILE));
    expect(counts.entities).toEqual({ read: 2, new: 1, present: 1 });
    expect(counts.observations).toEqual({ read: 3, new: 1, present: 2 });
    expect((await graph.openNodes('g', ['Ada'])).entities[0]?.observations).toEqual(['a', 'b']);
  });

  it('reports bad lines by number and imports nothing of such a file', async () => {
    const bad = `${FILE}\n{"type":"entity","name":"C"}\nnot json\n[1]`;
    const parsed = parseMemoryFile(bad);
    expect(parsed.errors.map((e) => e.line)).toEqual([6, 7, 8]);
    expect(parsed.errors[0]?.message).toMatch(/entityType/);
    await expect(importMemoryFile(store, 'default', parsed)).rejects.toThrow(/^line 6: /);
    expect(await graph.readGraph('default')).toEqual({ entities: [], relations: [] });
  });
});
