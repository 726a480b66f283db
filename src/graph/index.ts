// The knowledge graph domain: entities, observations and relations (triples in the store), the
// official memory server's semantics (the drop-in `cairn-graph`), and its JSONL import.
export { EntityNotFoundError } from './errors.js';
export {
  checkGraphName,
  GRAPH_NAME,
  GraphNameError,
  graphNameProblem,
  RESERVED_GRAPH_PREFIX,
} from './graph-name.js';
export {
  DEFAULT_GRAPH,
  type Entity,
  type KnowledgeGraph,
  type ObservationAdd,
  type ObservationDeletion,
  type ObservationsAdded,
  type Relation,
} from './model.js';
export {
  addObservationsInput,
  createEntitiesInput,
  createRelationsInput,
  deletedOutput,
  deleteEntitiesInput,
  deleteObservationsInput,
  deleteRelationsInput,
  entitiesOutput,
  graphOutput,
  observationsOutput,
  openNodesInput,
  readGraphInput,
  relationsOutput,
  searchNodesInput,
} from './schemas.js';
export { createGraphService, type GraphService, type GraphServiceOptions } from './service.js';
export { entityNameMatches, queryTrigrams } from './search.js';
export { slugOf } from './slug.js';
export {
  type ImportCount,
  type ImportCounts,
  importMemoryFile,
  type MemoryFileLine,
  parseMemoryFile,
  type ParsedMemoryFile,
} from './import.js';
