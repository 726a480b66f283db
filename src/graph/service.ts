// The knowledge graph service (core.graph): the official memory server's nine operations with
// its semantics, over the store's graph tables, per named graph. Each write is one store
// transaction, so concurrent processes never lose an acknowledged write.
import type { GraphIndex, Store } from '../store/index.js';
import { appendNew } from './append.js';
import { EntityNotFoundError } from './errors.js';
import type {
  Entity,
  KnowledgeGraph,
  ObservationAdd,
  ObservationDeletion,
  ObservationsAdded,
  Relation,
} from './model.js';
import { entityMatches, queryTrigrams, subgraph, toEntity, toRelation } from './search.js';
import { slugOf } from './slug.js';

export interface GraphServiceOptions {
  clock?: (() => number) | undefined;
}

export interface GraphService {
  /** Creates the entities whose names the graph lacks; returns those it created. */
  createEntities(graph: string, entities: readonly Entity[]): Promise<Entity[]>;
  /** Creates relations not already present (same from, to and type); returns those created. */
  createRelations(graph: string, relations: readonly Relation[]): Promise<Relation[]>;
  /**
   * Appends each entity's new observations (those it does not hold yet).
   * @throws EntityNotFoundError for an unknown entity (nothing of the call is kept).
   */
  addObservations(graph: string, adds: readonly ObservationAdd[]): Promise<ObservationsAdded[]>;
  /** Deletes entities and every relation naming them; missing names are ignored. */
  deleteEntities(graph: string, names: readonly string[]): Promise<void>;
  /** Deletes the listed observations; missing entities and observations are ignored. */
  deleteObservations(graph: string, deletions: readonly ObservationDeletion[]): Promise<void>;
  /** Deletes the listed relations; missing ones are ignored. */
  deleteRelations(graph: string, relations: readonly Relation[]): Promise<void>;
  readGraph(graph: string): Promise<KnowledgeGraph>;
  /** Entities with `query` as a case-insensitive substring, and relations touching them. */
  searchNodes(graph: string, query: string): Promise<KnowledgeGraph>;
  /** The named entities, and relations touching them. */
  openNodes(graph: string, names: readonly string[]): Promise<KnowledgeGraph>;
}

const EMPTY = (): KnowledgeGraph => ({ entities: [], relations: [] });

/** Builds the graph service over the store. */
export function createGraphService(store: Store, options: GraphServiceOptions = {}): GraphService {
  const index: GraphIndex = store.graphIndex;
  const clock = options.clock ?? Date.now;

  async function search(graph: string, query: string): Promise<KnowledgeGraph> {
    const graphId = await index.findGraph(store, graph);
    if (graphId === undefined) return EMPTY();
    const trigrams = queryTrigrams(query);
    const ids = trigrams === null ? null : await index.candidates(trigrams, graphId);
    return store.read(async (tx) => {
      if (ids !== null && ids.length === 0) return EMPTY();
      const rows = await index.entities(tx, graphId, ids ?? undefined);
      return subgraph(
        index,
        tx,
        graphId,
        rows.filter((e) => entityMatches(e, query)),
      );
    });
  }

  return {
    createEntities: (graph, entities) =>
      store.write(async (tx) => {
        const now = clock();
        const graphId = await index.ensureGraph(tx, graph, now);
        const created: Entity[] = [];
        for (const e of entities) {
          const input = { name: e.name, entityType: e.entityType, slug: slugOf(e.name) };
          const id = await index.insertEntity(tx, graphId, input, now);
          if (id === undefined) continue;
          await index.addObservations(tx, id, e.observations, now);
          created.push({ name: e.name, entityType: e.entityType, observations: e.observations });
        }
        return created;
      }),

    createRelations: (graph, relations) =>
      store.write(async (tx) => {
        const now = clock();
        const graphId = await index.ensureGraph(tx, graph, now);
        const created: Relation[] = [];
        for (const r of relations) {
          const triple = { subject: r.from, predicate: r.relationType, object: r.to };
          if (await index.insertTriple(tx, graphId, triple, now))
            created.push({ from: r.from, to: r.to, relationType: r.relationType });
        }
        return created;
      }),

    addObservations: (graph, adds) =>
      store.write(async (tx) => {
        const now = clock();
        const graphId = await index.findGraph(tx, graph);
        const results: ObservationsAdded[] = [];
        for (const a of adds) {
          const id =
            graphId === undefined
              ? undefined
              : (await index.entityIds(tx, graphId, [a.entityName])).get(a.entityName);
          if (graphId === undefined || id === undefined)
            throw new EntityNotFoundError(a.entityName);
          const added = await appendNew(tx, index, { graphId, now }, id, a.contents);
          results.push({ entityName: a.entityName, addedObservations: added });
        }
        return results;
      }),

    deleteEntities: (graph, names) =>
      store.write(async (tx) => {
        const graphId = await index.findGraph(tx, graph);
        if (graphId !== undefined && names.length > 0)
          await index.deleteEntities(tx, graphId, names);
      }),

    deleteObservations: (graph, deletions) =>
      store.write(async (tx) => {
        const graphId = await index.findGraph(tx, graph);
        if (graphId === undefined) return;
        for (const d of deletions) {
          const id = (await index.entityIds(tx, graphId, [d.entityName])).get(d.entityName);
          if (id !== undefined && d.observations.length > 0)
            await index.deleteObservations(tx, id, d.observations);
        }
      }),

    deleteRelations: (graph, relations) =>
      store.write(async (tx) => {
        const graphId = await index.findGraph(tx, graph);
        if (graphId === undefined) return;
        for (const r of relations)
          await index.deleteTriple(tx, graphId, {
            subject: r.from,
            predicate: r.relationType,
            object: r.to,
          });
      }),

    readGraph: (graph) =>
      store.read(async (tx) => {
        const graphId = await index.findGraph(tx, graph);
        if (graphId === undefined) return EMPTY();
        const entities = await index.entities(tx, graphId);
        const triples = await index.triples(tx, graphId);
        return { entities: entities.map(toEntity), relations: triples.map(toRelation) };
      }),

    searchNodes: search,

    openNodes: (graph, names) =>
      store.read(async (tx) => {
        const graphId = await index.findGraph(tx, graph);
        if (graphId === undefined || names.length === 0) return EMPTY();
        const ids = [...(await index.entityIds(tx, graphId, names)).values()];
        const rows = ids.length === 0 ? [] : await index.entities(tx, graphId, ids);
        return subgraph(index, tx, graphId, rows);
      }),
  };
}
