// The context server (`cairn-context`): its factory, the family table and what a family file
// needs to declare tools; the operation modes, the remote it forwards to, caller auth.
export { type CallerAuth, CONTEXT_AUTH_ERROR, TOKEN_META_KEY } from './caller.js';
export { CONTEXT_FAMILIES } from './families.js';
export {
  type ContextCallContext,
  type ContextFamily,
  type ContextFamilyName,
  type ContextOutput,
  type ContextTool,
  contextTool,
  type ProvenancedCallContext,
  provenancedTool,
} from './family.js';
export { contextResult } from './format.js';
export { forwardedMeta } from './forward.js';
export {
  CONTEXT_PATH,
  DEFAULT_CALL_TIMEOUT_MS,
  ModeConfigError,
  type ModeFlags,
  type ModeSettings,
  modeSettings,
} from './mode-config.js';
export {
  CONTEXT_MODES,
  type ContextMode,
  DEFAULT_CONTEXT_MODE,
  isContextMode,
  MODE_MATRIX,
  MODE_UNSERVED,
  ModeUnservedError,
  modesServing,
  needsRemote,
  placement,
  type Placement,
} from './modes.js';
export { callProvenance, PROVENANCE_META_KEY, withProvenance } from './provenance.js';
export {
  createRemote,
  type Remote,
  type RemoteCall,
  type RemoteOptions,
  REMOTE_UNAVAILABLE,
  RemoteUnavailableError,
} from './remote.js';
export {
  CONTEXT_SERVER_NAME,
  contextTools,
  type ContextServerOptions,
  createContextServer,
  placedTools,
} from './server.js';
export { validateFamily } from './validate-family.js';
