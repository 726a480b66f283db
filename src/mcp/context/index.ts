// The context server (`cairn-context`): its factory, the family table and what a family file
// needs to declare tools.
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
export { callProvenance, PROVENANCE_META_KEY, withProvenance } from './provenance.js';
export {
  CONTEXT_SERVER_NAME,
  contextTools,
  type ContextServerOptions,
  createContextServer,
} from './server.js';
export { validateFamily } from './validate-family.js';
