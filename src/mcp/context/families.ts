// The context server's tool table: every family it serves, in the spec's order. Adding a
// family is one file beside this one (`<name>-family.ts` exporting a ContextFamily) and one
// line here; adding a tool is one entry in its family's list. List only tools that work.
import { agentFamily } from './agent-family.js';
import { entityFamily } from './entity-family.js';
import type { ContextFamily } from './family.js';
import { indexFamily } from './index-family.js';
import { memoryFamily } from './memory-family.js';
import { projectFamily } from './project-family.js';
import { searchFamily } from './search-family.js';
import { sessionFamily } from './session-family.js';
import { validateFamily } from './validate-family.js';
import { vcsFamily } from './vcs-family.js';

/**
 * Served: search (search_code, search_memory), index, validate, memory, session, agent,
 * project, vcs, entity.
 */
export const CONTEXT_FAMILIES: readonly ContextFamily[] = [
  searchFamily,
  indexFamily,
  validateFamily,
  memoryFamily,
  sessionFamily,
  agentFamily,
  projectFamily,
  vcsFamily,
  entityFamily,
];
