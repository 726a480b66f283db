// The knowledge graph as the official memory server (`@modelcontextprotocol/server-memory`)
// shapes it on the wire: entities with observations, directed typed relations between names.
// Pure types; the store keeps relations as subject–predicate–object triples.

export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface Relation {
  from: string;
  to: string;
  relationType: string;
}

export interface KnowledgeGraph {
  entities: Entity[];
  relations: Relation[];
}

export interface ObservationAdd {
  entityName: string;
  contents: string[];
}

export interface ObservationsAdded {
  entityName: string;
  addedObservations: string[];
}

export interface ObservationDeletion {
  entityName: string;
  observations: string[];
}

/** The graph the drop-in serves when a connection names none. */
export const DEFAULT_GRAPH = 'default';
