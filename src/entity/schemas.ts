// One zod schema per tool: `project` (spec section 7: action, resource, project_id required,
// data, filters) and `entity` (section 9: action, resource, data, id and the scoping ids). Shape
// only; what `data` may hold depends on the resource and is checked by the engine.
import { z } from 'zod';

import { idText } from '../activity/sessions/index.js';
import {
  ENTITY_ACTIONS,
  ENTITY_RESOURCE_NAMES,
  PROJECT_ACTIONS,
  PROJECT_RESOURCE_NAMES,
  SCOPE_IDS,
  type ScopeId,
} from './model.js';

const oneOf = <T extends readonly [string, ...string[]]>(values: T, field: string) =>
  z.enum(values, { error: () => `${field} must be one of ${values.join(', ')}` });

const object = (field: string) =>
  z.record(z.string(), z.unknown(), { error: () => `${field} must be an object` });

const token = z
  .string()
  .max(8192)
  .optional()
  .describe('JWT for authenticated requests (when the server has auth on)');

export const projectInput = z.object({
  action: oneOf(PROJECT_ACTIONS, 'action').describe('create, get, update, list, delete'),
  resource: oneOf(PROJECT_RESOURCE_NAMES, 'resource').describe(
    'project, phase, issue, dependency, decision',
  ),
  project_id: idText('project_id').describe(
    'Project ID. Resource project: the project itself (create: the new project’s id; list: "*" for every project); other resources: the project they belong to',
  ),
  data: object('data')
    .optional()
    .describe(
      'create/update: the fields; get/update/delete of a phase, issue, dependency or decision: data.id names it',
    ),
  filters: object('filters')
    .optional()
    .describe(
      'list: field equality (e.g. {"status": "open"}), and limit (default 50, at most 500) and offset',
    ),
  token,
});

const scopeDescriptions: Record<ScopeId, string> = {
  org_id: 'Organization ID',
  repository_id: 'Repository ID (branch/worktree list)',
  plan_id: 'Plan ID (version list)',
  plan_version_id: 'Plan version ID (review list)',
  issue_id: 'Issue ID (comment/label operations)',
  label_id: 'Label ID (label unassignment)',
  project_id: 'Project ID (project-scoped list)',
  team_id: 'Team ID (team member list)',
  user_id: 'User ID (team member delete)',
  worktree_id: 'Worktree ID (assignment list)',
  email: 'User email (lookup operations)',
};

const scopeShape = Object.fromEntries(
  SCOPE_IDS.map((id) => [id, idText(id).optional().describe(scopeDescriptions[id])]),
) as Record<ScopeId, z.ZodOptional<ReturnType<typeof idText>>>;

export const entityInput = z.object({
  action: oneOf(ENTITY_ACTIONS, 'action').describe('create, get, update, list, delete, release'),
  resource: oneOf(ENTITY_RESOURCE_NAMES, 'resource').describe(ENTITY_RESOURCE_NAMES.join(', ')),
  data: object('data')
    .optional()
    .describe('create/update: the fields; list: field equality filters, limit and offset'),
  id: idText('id').optional().describe('Resource ID (for get/update/delete/release)'),
  ...scopeShape,
  token,
});

export type ProjectInput = z.infer<typeof projectInput>;
export type EntityInput = z.infer<typeof entityInput>;
