// The graph service's semantics (the official memory server's), per named graph, on a fresh
// store: creates skip existing names, relations dedupe, add_observations refuses an unknown
// entity atomically, deletes ignore what is missing, search finds exactly the substrings.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../store/index.js';
import { EntityNotFoundError } from './errors.js';
import { createGraphService, type GraphService } from './service.js';

let store: Store;
let graph: GraphService;

beforeEach(async () => {
  store = await openSqliteStore(':memory:');
  graph = createGraphService(store, { clock: () => 1_000 });
});
afterEach(() => store.close());

const ada = { name: 'Ada', entityType: 'person', observations: ['wrote notes', 'wrote notes'] };
const bab = { name: 'Babbage', entityType: 'person', observations: ['built engines'] };

describe('graph service', () => {
  it('creates new entities only and keeps insertion order and duplicate observations', async () => {
    expect(await graph.createEntities('g', [ada, bab])).toEqual([ada, bab]);
    expect(await graph.createEntities('g', [{ ...ada, entityType: 'x' }])).toEqual([]);
    expect((await graph.readGraph('g')).entities).toEqual([ada, bab]);
    expect(await graph.readGraph('other')).toEqual({ entities: [], relations: [] });
  });

  it('dedupes relations on (from, to, type), allows unknown endpoints, deletes ignore misses', async () => {
    const r = { from: 'Ada', to: 'Babbage', relationType: 'knows' };
    const ghost = { from: 'Ada', to: 'Nobody', relationType: 'knows' };
    expect(await graph.createRelations('g', [r, ghost])).toEqual([r, ghost]);
    expect(await graph.createRelations('g', [r])).toEqual([]);
    await graph.deleteRelations('g', [ghost, { ...r, relationType: 'none' }]);
    await graph.deleteRelations('missing', [r]);
    expect((await graph.readGraph('g')).relations).toEqual([r]);
  });

  it('adds only new observations and refuses an unknown entity with nothing kept', async () => {
    await graph.createEntities('g', [ada]);
    expect(
      await graph.addObservations('g', [
        { entityName: 'Ada', contents: ['wrote notes', 'a', 'a'] },
      ]),
    ).toEqual([{ entityName: 'Ada', addedObservations: ['a', 'a'] }]);
    const call = graph.addObservations('g', [
      { entityName: 'Ada', contents: ['b'] },
      { entityName: 'Zed', contents: ['c'] },
    ]);
    await expect(call).rejects.toThrow(EntityNotFoundError);
    await expect(call).rejects.toThrow('Entity with name Zed not found');
    expect((await graph.openNodes('g', ['Ada'])).entities[0]?.observations).toEqual([
      'wrote notes',
      'wrote notes',
      'a',
      'a',
    ]);
  });

  it('deletes entities with their relations, and observations by value', async () => {
    await graph.createEntities('g', [ada, bab]);
    await graph.createRelations('g', [
      { from: 'Ada', to: 'Babbage', relationType: 'knows' },
      { from: 'Babbage', to: 'Zed', relationType: 'knows' },
    ]);
    await graph.deleteObservations('g', [
      { entityName: 'Ada', observations: ['wrote notes'] },
      { entityName: 'Nobody', observations: ['x'] },
    ]);
    await graph.deleteEntities('g', ['Ada', 'Nobody']);
    expect(await graph.readGraph('g')).toEqual({
      entities: [bab],
      relations: [{ from: 'Babbage', to: 'Zed', relationType: 'knows' }],
    });
  });

  it('searches case-insensitive substrings of name, type and observations, with touching relations', async () => {
    await graph.createEntities('g', [
      ada,
      bab,
      { name: 'Eve', entityType: 'Spy', observations: [] },
    ]);
    await graph.createRelations('g', [{ from: 'Eve', to: 'Ada', relationType: 'watches' }]);
    const names = async (q: string) =>
      (await graph.searchNodes('g', q)).entities.map((e) => e.name);
    expect(await names('WROTE')).toEqual(['Ada']);
    expect(await names('erso')).toEqual(['Ada', 'Babbage']);
    expect(await names('spy')).toEqual(['Eve']);
    expect(await names('e')).toEqual(['Ada', 'Babbage', 'Eve']);
    expect(await names('')).toEqual(['Ada', 'Babbage', 'Eve']);
    expect(await names('tes wr')).toEqual([]);
    expect(await names('zzz')).toEqual([]);
    expect((await graph.searchNodes('g', 'spy')).relations).toEqual([
      { from: 'Eve', to: 'Ada', relationType: 'watches' },
    ]);
    await graph.deleteObservations('g', [{ entityName: 'Ada', observations: ['wrote notes'] }]);
    expect(await names('wrote')).toEqual([]);
  });

  it('answers searches exactly as a scan over the whole graph would', async () => {
    const words = ['alpha', 'Beta', 'GAMMA', 'delta', 'épée', 'straße', 'x'];
    const entities = Array.from({ length: 60 }, (_, i) => ({
      name: `${words[i % 7] ?? ''}-${i}`,
      entityType: words[(i * 3) % 7] ?? '',
      observations: [`${words[(i * 5) % 7] ?? ''} ${i % 4}`],
    }));
    await graph.createEntities('g', entities);
    // The trigram postings serve these (not a scan): candidates are a small superset.
    const graphId = (await store.graphIndex.findGraph(store, 'g')) ?? 0;
    const candidates = await store.graphIndex.candidates(['alp', 'lph'], graphId);
    expect(candidates).toHaveLength(9);
    for (const q of [
      'alp',
      'ETA',
      'pée',
      'STRASSE',
      'straSSe',
      'a-1',
      ' 3',
      'mma-',
      'x-6',
      'lta 2',
    ]) {
      const want = entities.filter((e) =>
        [e.name, e.entityType, ...e.observations].some((t) =>
          t.toLowerCase().includes(q.toLowerCase()),
        ),
      );
      expect((await graph.searchNodes('g', q)).entities, q).toEqual(want);
    }
  });

  it('keeps graphs apart and opens named nodes in graph order', async () => {
    await graph.createEntities('a', [ada, bab]);
    await graph.createEntities('b', [{ ...ada, entityType: 'other' }]);
    await graph.createRelations('a', [{ from: 'Ada', to: 'Babbage', relationType: 'knows' }]);
    const opened = await graph.openNodes('a', ['Babbage', 'Ada', 'Nobody']);
    expect(opened.entities.map((e) => e.name)).toEqual(['Ada', 'Babbage']);
    expect(opened.relations).toHaveLength(1);
    expect((await graph.searchNodes('b', 'person')).entities).toEqual([]);
    expect((await graph.openNodes('b', ['Ada'])).relations).toEqual([]);
  });

  it('scans while entities written past the store are not indexed, then uses the index again', async () => {
    await graph.createEntities('g', [ada]);
    const graphId = (await store.graphIndex.findGraph(store, 'g')) ?? 0;
    // A plain statement outside store.write: the trigger marks it, nothing indexes it yet.
    await store.run(
      `INSERT INTO graph_entities(graph_id, name, entity_type, slug, created_at, updated_at)
       VALUES (?, 'Raw', 'unindexed', 'raw', 0, 0)`,
      [graphId],
    );
    expect(await store.graphIndex.candidates(['ind', 'nde'], graphId)).toBeNull();
    expect((await graph.searchNodes('g', 'INDEXED')).entities.map((e) => e.name)).toEqual(['Raw']);
    await graph.createEntities('g', [bab]); // a write flushes the backlog too
    expect(await store.graphIndex.candidates(['ind', 'nde'], graphId)).toHaveLength(1);
    expect((await graph.searchNodes('g', 'INDEXED')).entities.map((e) => e.name)).toEqual(['Raw']);
  });
});
