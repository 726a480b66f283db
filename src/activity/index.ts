// The activity domain: who asked (execution provenance) and, as it lands, what they did
// (sessions, agent logs). Imports only the store and shared utilities.
export {
  type Discovery,
  type DiscoveryInputs,
  discoverProvenance,
  type RejectedSource,
} from './discover.js';
export {
  AUTHENTICATED_AGENT,
  DEFAULT_AGENT_PROGRAM,
  FAMILY_REQUIREMENTS,
  MAX_ID_CHARS,
  MAX_PATH_CHARS,
  MODEL_ID_VARIABLES,
  type Provenance,
  PROVENANCE_FIELDS,
  type ProvenanceFamily,
  type ProvenanceField,
  SESSION_ID_VARIABLES,
} from './fields.js';
export { type OriginIdentity, originIdentity } from './origin.js';
export {
  MODEL_ID_HINT,
  PARENT_HINT,
  ProvenanceError,
  ProvenanceInvalidError,
  ProvenanceMissingError,
  requireProvenance,
  type ResolveOptions,
  resolveProvenance,
} from './provenance.js';
export {
  canonicalDir,
  discoverWorkspace,
  execGit,
  type GitRunner,
  gitWorkspace,
  type Workspace,
  type WorkspaceDetector,
  WORKSPACE_DETECTORS,
} from './workspace.js';
