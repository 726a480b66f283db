// The entity tool (spec section 9): unified CRUD over vcs, plan, issue and org resources, with
// the spec's scoping ids, and `release` ending an assignment. A thin handler over
// core.entities; the call's provenance (resolved, not required) is recorded with each write.
import type { Core } from '../../core/index.js';
import { entityInput } from '../../entity/index.js';
import { outcomeData, outcomeText } from './entity-text.js';
import { type ContextFamily, contextTool } from './family.js';
import { callWriter } from './project-family.js';

function entityTools(core: Core) {
  return [
    contextTool({
      name: 'entity',
      description:
        'Unified entity CRUD. action: create, get, update, list, delete, release; resource: repository, branch, worktree, assignment, plan, version, review, issue, comment, label, label_assignment, org, user, team, team_member, api_key. id names the row for get/update/delete/release (or, without id, a unique key of scoping ids: user by email, team_member by team_id + user_id, label_assignment by issue_id + label_id). The scoping ids (org_id, repository_id, plan_id, plan_version_id, issue_id, label_id, project_id, team_id, user_id, worktree_id, email) fill the parent on create and filter list; data holds the fields on create/update and field filters plus limit/offset on list. Parents must exist (a branch needs its repository, a review its plan version, a worktree’s branch must be of its repository); issue and assignment may link a live board task (task_id). release ends an assignment (a lease; one open per worktree). api_key create answers the secret once; only its sha256 is kept. A delete others depend on is refused, naming them.',
      input: entityInput,
      annotations: {
        title: 'Entities',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const { writer, meta } = await callWriter(ctx);
        const outcome = await core.entities.entity(a, writer);
        return { text: outcomeText(outcome), data: outcomeData(outcome), meta };
      },
    }),
  ];
}

export const entityFamily: ContextFamily = { name: 'entity', tools: entityTools };
