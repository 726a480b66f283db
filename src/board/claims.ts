// Claims: the atomic claim, claim-next-ready and lease renewal. Every path first returns
// expired leases to todo inside the same write transaction, so a dead agent's work is free.
import type { Store } from '../store/index.js';
import { claimConflict, dependenciesUnmet, NotHolderError, UNMET_LISTED } from './errors.js';
import { recordTransition, type Transition } from './events.js';
import type { Task } from './model.js';
import { ORDER_SQL, READY_SQL, selectUnmetDependencies } from './queries.js';
import { mustFind, sweepExpired } from './rows-ops.js';
import { toTask, type TaskRow } from './rows.js';
import type { ActorOrigin, ClaimInput } from './types.js';

export interface ClaimContext {
  store: Store;
  clock: () => number;
  leaseMs: number;
}

/** The history event of a successful claim (todo → in_progress). */
function claimEvent(input: ClaimInput, now: number): Transition {
  const assign = input.via === 'assign';
  return {
    client: input.origin?.client ?? null,
    via: input.origin?.via ?? null,
    taskId: input.taskId,
    at: now,
    from: 'todo',
    to: 'in_progress',
    actor: assign ? (input.assignedBy ?? null) : input.assigneeAgentId,
    reason: assign ? `assign to ${input.assigneeAgentId}` : 'claim',
  };
}

/** The claim operations over a store. */
export function createClaims({ store, clock, leaseMs }: ClaimContext) {
  return {
    /**
     * Atomic claim: one conditional UPDATE on a todo, unassigned, live task whose live
     * dependencies are all done, decided in the same write transaction as the update.
     * @throws NotFoundError, ConflictError when another agent holds it, or PolicyError
     * (dependencies_unmet) naming the unfinished dependencies.
     */
    async claimTask(input: ClaimInput): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepExpired(tx, now);
        const before = await mustFind(tx, input.taskId);
        if (before.status === 'todo' && before.assignee_agent_id === null) {
          const { unmet, total } = await selectUnmetDependencies(tx, before.id, UNMET_LISTED);
          if (total > 0) throw dependenciesUnmet(before.id, unmet, total);
        }
        const res = await tx.run(
          `UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, assignee_runtime = ?,
             lease_expires_at = ?, updated_at = ?
           WHERE id = ? AND status = 'todo' AND assignee_agent_id IS NULL AND deleted_at IS NULL`,
          [input.assigneeAgentId, input.assigneeRuntime ?? null, now + leaseMs, now, input.taskId],
        );
        const row = await mustFind(tx, input.taskId);
        if (res.changes === 0) throw claimConflict(row.id, row.status, row.assignee_agent_id);
        await recordTransition(tx, claimEvent(input, now));
        return toTask(row);
      });
    },

    /** Claims the highest-priority ready task (oldest first on ties), or returns null. */
    async claimNextReady(input: {
      assigneeAgentId: string;
      assigneeRuntime?: string | undefined;
      teamId?: string | undefined;
      origin?: ActorOrigin | undefined;
    }): Promise<Task | null> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepExpired(tx, now);
        const team = input.teamId === undefined ? '' : 'AND t.team_id = ?';
        const params = input.teamId === undefined ? [] : [input.teamId];
        const next = await tx.get<TaskRow>(
          `SELECT t.* FROM tasks t WHERE ${READY_SQL} ${team} ${ORDER_SQL} LIMIT 1`,
          params,
        );
        if (next === undefined) return null;
        await tx.run(
          "UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, assignee_runtime = ?, lease_expires_at = ?, updated_at = ? WHERE id = ? AND status = 'todo'",
          [input.assigneeAgentId, input.assigneeRuntime ?? null, now + leaseMs, now, next.id],
        );
        const event = { taskId: next.id, at: now, from: 'todo', to: 'in_progress' } as const;
        await recordTransition(tx, {
          ...event,
          actor: input.assigneeAgentId,
          client: input.origin?.client ?? null,
          via: input.origin?.via ?? null,
          reason: 'claim next ready',
        });
        return toTask(await mustFind(tx, next.id));
      });
    },

    /**
     * Extends the holder's lease by the configured lease length from now.
     * @throws NotFoundError, or NotHolderError when the caller does not hold the claim.
     */
    async renewClaim(input: { taskId: string; assigneeAgentId: string }): Promise<Task> {
      return store.write(async (tx) => {
        const now = clock();
        await sweepExpired(tx, now);
        const row = await mustFind(tx, input.taskId);
        if (row.status !== 'in_progress' || row.assignee_agent_id !== input.assigneeAgentId) {
          const held =
            row.assignee_agent_id === null ? 'unclaimed' : `held by ${row.assignee_agent_id}`;
          throw new NotHolderError(
            `renew failed: task ${row.id} is ${row.status}, ${held}; claim it again instead`,
          );
        }
        const lease = now + leaseMs;
        await tx.run('UPDATE tasks SET lease_expires_at = ?, updated_at = ? WHERE id = ?', [
          lease,
          now,
          row.id,
        ]);
        return toTask({ ...row, lease_expires_at: lease, updated_at: now });
      });
    },
  };
}
