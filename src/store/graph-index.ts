// Named operations on the knowledge graph (migration 29): graphs, entities and their
// observations, triples. Writes take the caller's write transaction; reads take a snapshot (or
// the store). Portable SQL but for JSON-array lists (json-lists.ts, per dialect); rows come
// back in insertion order, which is the order the official memory server answers in.
// Candidates for a substring query come from the graph corpus's trigram postings.
import { jsonEach, jsonTexts, textList } from './json-lists.js';
import type { Dialect, Queryable } from './types.js';

const list = (values: readonly (string | number)[]): string => JSON.stringify([...values]);

export interface GraphEntityRow {
  id: number;
  name: string;
  entityType: string;
  observations: string[];
}

export interface GraphTripleRow {
  id: number;
  subject: string;
  predicate: string;
  object: string;
}

export interface NewGraphEntity {
  name: string;
  entityType: string;
  slug: string;
}

export interface GraphTriple {
  subject: string;
  predicate: string;
  object: string;
}

/**
 * The entity ids of the graph whose documents hold every trigram (unranked), or null when
 * some entities are not indexed yet (written past the store): the caller scans instead.
 */
export type GraphMatch = (terms: readonly string[], graphId: number) => Promise<number[] | null>;

export interface GraphIndex {
  /** The id of graph `name`, created if missing. */
  ensureGraph(tx: Queryable, name: string, now: number): Promise<number>;
  /** The id of graph `name`, undefined when it was never written. */
  findGraph(db: Queryable, name: string): Promise<number | undefined>;
  /** Inserts the entity unless its name exists in the graph: its new id, else undefined. */
  insertEntity(
    tx: Queryable,
    graphId: number,
    e: NewGraphEntity,
    now: number,
  ): Promise<number | undefined>;
  /** Appends observations to an entity, in order (duplicates as given). */
  addObservations(
    tx: Queryable,
    entityId: number,
    contents: readonly string[],
    now: number,
  ): Promise<void>;
  /** Removes every observation of the entity equal to one of `contents`; how many. */
  deleteObservations(tx: Queryable, entityId: number, contents: readonly string[]): Promise<number>;
  /** Removes the named entities, their observations and every triple naming them; how many. */
  deleteEntities(tx: Queryable, graphId: number, names: readonly string[]): Promise<number>;
  /** Inserts a current triple unless the same (subject, object, predicate) is current. */
  insertTriple(tx: Queryable, graphId: number, t: GraphTriple, now: number): Promise<boolean>;
  /** Removes the current triple (subject, predicate, object); how many rows (0 or 1). */
  deleteTriple(tx: Queryable, graphId: number, t: GraphTriple): Promise<number>;
  /** Name → id of the named entities that exist in the graph. */
  entityIds(db: Queryable, graphId: number, names: readonly string[]): Promise<Map<string, number>>;
  /** Entities with their observations, by id: all of the graph, or those of `ids`. */
  entities(db: Queryable, graphId: number, ids?: readonly number[]): Promise<GraphEntityRow[]>;
  /** Current triples by id: all of the graph, or those with an endpoint among `names`. */
  triples(db: Queryable, graphId: number, names?: readonly string[]): Promise<GraphTripleRow[]>;
  /** Trigram candidates of the graph (see GraphMatch). */
  candidates(terms: readonly string[], graphId: number): Promise<number[] | null>;
}

/**
 * Ids of the graph's current triples with an endpoint among the names in the two list
 * parameters (graph id first): driven by the list, so each name is one index lookup
 * (graph_triples_current for subjects, graph_triples_object for objects), never a scan.
 */
const touching = (dialect: Dialect): string => {
  const names = jsonEach(dialect, 'texts');
  return `SELECT t.id FROM ${names} AS w CROSS JOIN graph_triples AS t
  WHERE t.graph_id = ? AND t.subject = w.value AND t.status = 'current'
  UNION SELECT t.id FROM ${names} AS w CROSS JOIN graph_triples AS t
  WHERE t.graph_id = ? AND t.object = w.value AND t.status = 'current'`;
};

const touchingParams = (
  dialect: Dialect,
  graphId: number,
  names: readonly string[],
): (string | number)[] => {
  const named = textList(dialect, names);
  return [named, graphId, named, graphId];
};

/** The graph's entities (all, or those of `ids`, looked up one by one) with observations. */
async function entities(
  db: Queryable,
  graphId: number,
  ids?: readonly number[],
): Promise<GraphEntityRow[]> {
  const rows =
    ids === undefined
      ? await db.all<{ id: number; name: string; entityType: string }>(
          `SELECT id, name, entity_type AS "entityType" FROM graph_entities WHERE graph_id = ?
           ORDER BY id`,
          [graphId],
        )
      : await db.all<{ id: number; name: string; entityType: string }>(
          `SELECT e.id, e.name, e.entity_type AS "entityType"
           FROM ${jsonEach(db.dialect, 'ids')} AS w CROSS JOIN graph_entities AS e
           WHERE e.id = w.value AND e.graph_id = ? ORDER BY e.id`,
          [list(ids), graphId],
        );
  const byId = new Map(rows.map((r) => [r.id, { ...r, observations: [] as string[] }]));
  const observations =
    ids === undefined
      ? await db.all<{ entity: number; content: string }>(
          `SELECT o.entity_id AS entity, o.content FROM graph_observations o
           JOIN graph_entities e ON e.id = o.entity_id
           WHERE e.graph_id = ? ORDER BY o.entity_id, o.id`,
          [graphId],
        )
      : await db.all<{ entity: number; content: string }>(
          `SELECT o.entity_id AS entity, o.content
           FROM ${jsonEach(db.dialect, 'ids')} AS w CROSS JOIN graph_observations AS o
           WHERE o.entity_id = w.value ORDER BY o.entity_id, o.id`,
          [list([...byId.keys()])],
        );
  for (const o of observations) byId.get(o.entity)?.observations.push(o.content);
  return [...byId.values()];
}

/** Builds the graph operations; `match` reads the graph corpus's postings. */
export function createGraphIndex(match: GraphMatch): GraphIndex {
  return {
    async ensureGraph(tx, name, now) {
      await tx.run(
        'INSERT INTO graphs(name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING',
        [name, now],
      );
      const row = await tx.get<{ id: number }>('SELECT id FROM graphs WHERE name = ?', [name]);
      if (row === undefined) throw new Error(`graph ${name} vanished`);
      return row.id;
    },
    async findGraph(q, name) {
      return (await q.get<{ id: number }>('SELECT id FROM graphs WHERE name = ?', [name]))?.id;
    },
    async insertEntity(tx, graphId, e, now) {
      const row = await tx.get<{ id: number }>(
        `INSERT INTO graph_entities(graph_id, name, entity_type, slug, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(graph_id, name) DO NOTHING RETURNING id`,
        [graphId, e.name, e.entityType, e.slug, now, now],
      );
      return row?.id;
    },
    async addObservations(tx, entityId, contents, now) {
      for (const content of contents)
        await tx.run(
          'INSERT INTO graph_observations(entity_id, content, created_at) VALUES (?, ?, ?)',
          [entityId, content, now],
        );
      if (contents.length > 0)
        await tx.run('UPDATE graph_entities SET updated_at = ? WHERE id = ?', [now, entityId]);
    },
    async deleteObservations(tx, entityId, contents) {
      const { changes } = await tx.run(
        `DELETE FROM graph_observations WHERE entity_id = ? AND content IN ${jsonTexts(tx.dialect)}`,
        [entityId, textList(tx.dialect, contents)],
      );
      return changes;
    },
    async deleteEntities(tx, graphId, names) {
      const named = textList(tx.dialect, names);
      const IN = jsonTexts(tx.dialect);
      await tx.run(
        `DELETE FROM graph_observations WHERE entity_id IN
         (SELECT id FROM graph_entities WHERE graph_id = ? AND name IN ${IN})`,
        [graphId, named],
      );
      await tx.run(
        `DELETE FROM graph_triples WHERE id IN (${touching(tx.dialect)})`,
        touchingParams(tx.dialect, graphId, names),
      );
      const { changes } = await tx.run(
        `DELETE FROM graph_entities WHERE graph_id = ? AND name IN ${IN}`,
        [graphId, named],
      );
      return changes;
    },
    async insertTriple(tx, graphId, t, now) {
      const row = await tx.get<{ id: number }>(
        `INSERT INTO graph_triples(graph_id, subject, predicate, object, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(graph_id, subject, object, predicate) WHERE status = 'current' DO NOTHING
         RETURNING id`,
        [graphId, t.subject, t.predicate, t.object, now, now],
      );
      return row !== undefined;
    },
    async deleteTriple(tx, graphId, t) {
      const { changes } = await tx.run(
        `DELETE FROM graph_triples WHERE graph_id = ? AND subject = ? AND object = ?
         AND predicate = ? AND status = 'current'`,
        [graphId, t.subject, t.object, t.predicate],
      );
      return changes;
    },
    async entityIds(q, graphId, names) {
      const rows = await q.all<{ id: number; name: string }>(
        `SELECT id, name FROM graph_entities WHERE graph_id = ? AND name IN ${jsonTexts(q.dialect)}`,
        [graphId, textList(q.dialect, names)],
      );
      return new Map(rows.map((r) => [r.name, r.id]));
    },
    entities,
    async triples(q, graphId, names) {
      const columns = 'id, subject, predicate, object FROM graph_triples';
      if (names === undefined)
        return q.all<GraphTripleRow>(
          `SELECT ${columns} WHERE graph_id = ? AND status = 'current' ORDER BY id`,
          [graphId],
        );
      return q.all<GraphTripleRow>(
        `SELECT ${columns} WHERE id IN (${touching(q.dialect)}) ORDER BY id`,
        touchingParams(q.dialect, graphId, names),
      );
    },
    candidates: (terms, graphId) => match(terms, graphId),
  };
}
