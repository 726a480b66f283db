// The project and entity resources (cairn-context's project and entity tools): one engine over
// a declarative registry, with referential integrity, cycle refusal and leases.
export { API_KEY_PREFIX, hashSecret } from './api-keys.js';
export {
  CrossParentError,
  DependencyCycleError,
  HasDependentsError,
  MissingReferenceError,
  NotALeaseError,
} from './errors.js';
export {
  ENTITY_ACTIONS,
  ENTITY_RESOURCE_NAMES,
  type EntityList,
  type EntityOutcome,
  type EntityRecord,
  type FieldSpec,
  PROJECT_ACTIONS,
  PROJECT_RESOURCE_NAMES,
  type ResourceSpec,
  SCOPE_IDS,
  type Writer,
} from './model.js';
export type { Registry } from './registry.js';
export { entityInput, type EntityInput, projectInput, type ProjectInput } from './schemas.js';
export { createEntities, type Entities, type EntitiesOptions } from './service.js';
