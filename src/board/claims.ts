// Claims: the atomic claim, claim-next-ready and lease renewal. Every path first returns
// expired leases to todo inside the same write transaction, so a dead agent's work is free.
// Each is a 'rows' write: the UPDATE that takes or extends a claim states its precondition in
// its WHERE, so concurrent claimers serialise on the task's row lock, never on a snapshot.
import { ROW_LOCKS, skipLockedClause } from '../store/index.js';
import type { BoardWrite } from './board-signal.js';
import { claimConflict, dependenciesUnmet, NotHolderError, UNMET_LISTED } from './errors.js';
import { recordTransition, type Transition } from './events.js';
import type { Task } from './model.js';
import { ORDER_SQL, READY_SQL, selectUnmetDependencies } from './queries.js';
import { mustFind, sweepExpired } from './rows-ops.js';
import { toTask, type TaskRow } from './rows.js';
import type { ActorOrigin, ClaimInput } from './types.js';

export interface ClaimContext {
  /** The board's write (signals the board on commit). */
  write: BoardWrite;
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

/** Claim attempts on ready candidates another claimer took first, before giving up (null). */
const NEXT_READY_TRIES = 8;

/** The refusal of a renewal by an agent that does not hold `row`. */
function notHolder(row: TaskRow): NotHolderError {
  const held = row.assignee_agent_id === null ? 'unclaimed' : `held by ${row.assignee_agent_id}`;
  return new NotHolderError(
    `renew failed: task ${row.id} is ${row.status}, ${held}; claim it again instead`,
  );
}

/** The claim operations over a store. */
export function createClaims({ write, clock, leaseMs }: ClaimContext) {
  return {
    /**
     * Atomic claim: one conditional UPDATE on a todo, unassigned, live task whose live
     * dependencies are all done, decided in the same write transaction as the update. Of
     * concurrent claimers the first to lock the row wins; the others' UPDATE re-checks the
     * row as it now is and changes nothing.
     * @throws NotFoundError, ConflictError when another agent holds it, or PolicyError
     * (dependencies_unmet) naming the unfinished dependencies.
     */
    async claimTask(input: ClaimInput): Promise<Task> {
      return write(async (tx) => {
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
      }, ROW_LOCKS);
    },

    /**
     * Claims the highest-priority ready task (oldest first on ties), or returns null. On
     * PostgreSQL concurrent callers lock different candidates (SKIP LOCKED); a candidate taken
     * between the read and the UPDATE is passed over for the next one.
     */
    async claimNextReady(input: {
      assigneeAgentId: string;
      assigneeRuntime?: string | undefined;
      teamId?: string | undefined;
      origin?: ActorOrigin | undefined;
    }): Promise<Task | null> {
      return write(async (tx) => {
        const now = clock();
        await sweepExpired(tx, now);
        const team = input.teamId === undefined ? '' : 'AND t.team_id = ?';
        const params = input.teamId === undefined ? [] : [input.teamId];
        const lock = skipLockedClause(tx, 't');
        let next: TaskRow | undefined;
        for (let tries = 0; next === undefined && tries < NEXT_READY_TRIES; tries++) {
          const candidate = await tx.get<TaskRow>(
            `SELECT t.* FROM tasks t WHERE ${READY_SQL} ${team} ${ORDER_SQL} LIMIT 1${lock}`,
            params,
          );
          if (candidate === undefined) return null;
          const res = await tx.run(
            `UPDATE tasks SET status = 'in_progress', assignee_agent_id = ?, assignee_runtime = ?,
               lease_expires_at = ?, updated_at = ?
             WHERE id = ? AND status = 'todo' AND assignee_agent_id IS NULL AND deleted_at IS NULL`,
            [
              input.assigneeAgentId,
              input.assigneeRuntime ?? null,
              now + leaseMs,
              now,
              candidate.id,
            ],
          );
          if (res.changes === 1) next = candidate;
        }
        if (next === undefined) return null;
        const event = { taskId: next.id, at: now, from: 'todo', to: 'in_progress' } as const;
        await recordTransition(tx, {
          ...event,
          actor: input.assigneeAgentId,
          client: input.origin?.client ?? null,
          via: input.origin?.via ?? null,
          reason: 'claim next ready',
        });
        return toTask(await mustFind(tx, next.id));
      }, ROW_LOCKS);
    },

    /**
     * Extends the holder's lease by the configured lease length from now.
     * @throws NotFoundError, or NotHolderError when the caller does not hold the claim.
     */
    async renewClaim(input: { taskId: string; assigneeAgentId: string }): Promise<Task> {
      return write(async (tx) => {
        const now = clock();
        await sweepExpired(tx, now);
        const row = await mustFind(tx, input.taskId);
        if (row.status !== 'in_progress' || row.assignee_agent_id !== input.assigneeAgentId) {
          throw notHolder(row);
        }
        const lease = now + leaseMs;
        // Re-states the hold: a release or expiry racing this renewal leaves it changing nothing.
        const res = await tx.run(
          `UPDATE tasks SET lease_expires_at = ?, updated_at = ?
           WHERE id = ? AND status = 'in_progress' AND assignee_agent_id = ? AND deleted_at IS NULL`,
          [lease, now, row.id, input.assigneeAgentId],
        );
        if (res.changes === 0) throw notHolder(await mustFind(tx, input.taskId));
        return toTask({ ...row, lease_expires_at: lease, updated_at: now });
      }, ROW_LOCKS);
    },
  };
}
