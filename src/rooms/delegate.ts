// team_delegate's effect: a board task for a teammate the room's roster knows, or a recorded
// drop (unknown name, or the caller itself). Every outcome is written to the audit log.
import type { Board } from '../board/index.js';
import { appendAudit } from '../broker/index.js';
import { stripInvisible } from '../shared/index.js';
import type { Store } from '../store/index.js';
import { DELEGATE_FIELDS, RoomRefusalError } from './errors.js';
import type { DelegationOutcome, DelegationResult } from './model.js';

export interface DelegateInput {
  teamId: string;
  /** The delegating agent (the bound author). */
  caller: string;
  assignee?: string | undefined;
  task?: string | undefined;
}

export interface DelegateContext {
  store: Store;
  board: Board;
  /** Whether the team's roster knows `name`. */
  knows(teamId: string, name: string): Promise<boolean>;
}

const TITLE_MAX = 120;

/** A task title: the first non-empty line, cut to 120 characters. */
function titleOf(task: string): string {
  const line =
    task
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? task.trim();
  return line.length <= TITLE_MAX ? line : `${line.slice(0, TITLE_MAX - 1)}…`;
}

async function audit(
  ctx: DelegateContext,
  caller: string,
  outcome: DelegationOutcome | 'refused',
  detail: Record<string, unknown>,
): Promise<void> {
  await ctx.store.write((tx) =>
    appendAudit(tx, { tool: 'team_delegate', caller, step: 'delegate', outcome, detail }),
  );
}

/**
 * Creates the delegated task, assigned to the teammate with a note of who asked, and its
 * `task_created` audit row, in one write transaction.
 */
async function createDelegatedTask(
  ctx: DelegateContext,
  input: { teamId: string; caller: string; assignee: string; task: string },
): Promise<string> {
  const { teamId, caller, assignee } = input;
  const created = await ctx.board.createDelegatedTask(
    {
      task: { title: titleOf(input.task), description: input.task, teamId },
      assignee,
      by: caller,
      note: `Delegated by ${caller} to ${assignee} (team_delegate).`,
    },
    (tx, task) =>
      appendAudit(tx, {
        ...{ tool: 'team_delegate', caller, step: 'delegate', outcome: 'task_created' },
        detail: { teamId, assignee, taskId: task.id },
      }),
  );
  return created.id;
}

/**
 * Handles one delegation.
 * @throws RoomRefusalError when either field is empty; the board's PolicyError when a creation
 * cap refuses the task (audited as `refused`).
 */
export async function delegate(
  ctx: DelegateContext,
  input: DelegateInput,
): Promise<DelegationResult> {
  const assignee = input.assignee?.trim() ?? '';
  const task = stripInvisible(input.task ?? '').trim();
  if (assignee === '' || task === '') throw new RoomRefusalError(DELEGATE_FIELDS);
  const base = { teamId: input.teamId, assignee };
  if (assignee === input.caller) {
    await audit(ctx, input.caller, 'dropped_self', { ...base, why: 'assignee is the caller' });
    return { acknowledged: true, assignee, outcome: 'dropped_self' };
  }
  if (!(await ctx.knows(input.teamId, assignee))) {
    await audit(ctx, input.caller, 'dropped_unknown', { ...base, why: 'not on the team roster' });
    return { acknowledged: true, assignee, outcome: 'dropped_unknown' };
  }
  let taskId: string;
  try {
    taskId = await createDelegatedTask(ctx, { ...base, caller: input.caller, task });
  } catch (err) {
    await audit(ctx, input.caller, 'refused', { ...base, error: (err as Error).message });
    throw err;
  }
  return { acknowledged: true, assignee, outcome: 'task_created', taskId };
}
