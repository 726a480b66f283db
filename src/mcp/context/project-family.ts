// The project tool (spec section 7): project workflow resources — project, phase, issue,
// dependency, decision — with create/get/update/list/delete. A thin handler over
// core.entities; the call's provenance (resolved, not required) is recorded with each write.
import type { Core } from '../../core/index.js';
import { projectInput, type Writer } from '../../entity/index.js';
import { outcomeData, outcomeText } from './entity-text.js';
import { type ContextFamily, contextTool, type ContextCallContext } from './family.js';
import { PROVENANCE_META_KEY, resolvedProvenance } from './provenance.js';

const WRITE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** Who writes: the verified agent, else the calling program; and the call's provenance. */
export async function callWriter(
  ctx: ContextCallContext,
): Promise<{ writer: Writer; meta: Record<string, unknown> }> {
  const provenance = await resolvedProvenance(ctx);
  const agent = provenance.authenticated_agent ?? provenance.agent_program ?? null;
  return {
    writer: { agent, provenance: { ...provenance } },
    meta: { [PROVENANCE_META_KEY]: provenance },
  };
}

function projectTools(core: Core) {
  return [
    contextTool({
      name: 'project',
      description:
        'Project workflow (phases, issues, dependencies, decisions). action: create, get, update, list, delete; resource: project, phase, issue, dependency, decision; project_id (required): for resource project the project itself (create: the new id; list: "*" lists every project), otherwise the project the row belongs to (it must exist). data: the fields on create/update (phase: name, description, status, position; issue: title, description, status, priority, assignee, phase_id, task_id — a live board task it links; dependency: from_id depends on depends_on_id, issues or phases of the project, cycles refused; decision: title, decision, rationale, status, issue_id); data.id names a phase, issue, dependency or decision for get/update/delete. filters (list): field equality, limit, offset. A delete others depend on is refused, naming them.',
      input: projectInput,
      annotations: { title: 'Project workflow', ...WRITE },
      handler: async (a, ctx) => {
        const { writer, meta } = await callWriter(ctx);
        const outcome = await core.entities.project(a, writer);
        return { text: outcomeText(outcome), data: outcomeData(outcome), meta };
      },
    }),
  ];
}

export const projectFamily: ContextFamily = { name: 'project', tools: projectTools };
