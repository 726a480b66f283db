// log_delegation: a session hands work to a child session. The child is created (delegated,
// with the parent's repository, project, worktree, operator and machine) or an existing one is
// linked; logging the same parent and child again updates that delegation's status, and a
// finished delegation ends a child that is still open. Cycles and second parents are refused.
import { randomUUID } from 'node:crypto';

import { ConflictError, InvalidInputError } from '../../shared/index.js';
import {
  delegationBetween,
  insertDelegation,
  insertSession,
  type Queryable,
  sessionById,
  type Store,
  updateDelegationRow,
  updateSessionRow,
} from '../../store/index.js';
import type { Provenance } from '../fields.js';
import type { Delegation, Session } from './model.js';
import { requireSession, toDelegation } from './rows.js';
import type { DelegationData } from './schemas.js';

type CallProvenance = Readonly<Partial<Provenance>>;

const MAX_ANCESTRY = 100;

export interface DelegationLogged {
  delegation: Delegation;
  child: Session;
  /** True when the child session was created by this call (else it existed and was linked). */
  childCreated: boolean;
  /** True when this parent → child delegation was logged before: its status was updated. */
  updated: boolean;
}

/** Refuses `childId` when it is `parentId` or one of its ancestors (a delegation cycle). */
async function refuseCycle(tx: Queryable, parentId: string, childId: string): Promise<void> {
  let at: string | null = parentId;
  const path: string[] = [];
  for (let i = 0; at !== null && i < MAX_ANCESTRY; i += 1) {
    path.push(at);
    if (at === childId) {
      throw new ConflictError(
        `delegation cycle refused: ${[parentId, ...path.reverse()].join(' → ')}`,
      );
    }
    at = (await sessionById(tx, at))?.parent_session_id ?? null;
  }
}

interface DelegationOptions {
  clock: () => number;
  clean: (s: string) => Promise<string>;
}

export function createDelegations(store: Store, options: DelegationOptions) {
  const { clock, clean } = options;

  async function childOf(
    tx: Queryable,
    parent: Session,
    data: DelegationData,
    task: string | null,
    provenance: CallProvenance,
  ): Promise<{ id: string; created: boolean }> {
    const id = data.child_session_id ?? randomUUID();
    const childProvenance = {
      ...provenance,
      session_id: id,
      parent_session_id: parent.id,
      delegated: true,
    };
    const existing = await sessionById(tx, id);
    if (existing !== undefined) {
      await refuseCycle(tx, parent.id, id);
      if (existing.parent_session_id !== null && existing.parent_session_id !== parent.id) {
        throw new ConflictError(
          `session ${id} was already delegated by ${existing.parent_session_id}: a session has one parent`,
        );
      }
      if (existing.parent_session_id === null) {
        await updateSessionRow(tx, id, { parent_session_id: parent.id, delegated: 1 }, clock());
      }
      return { id, created: false };
    }
    const now = clock();
    await insertSession(tx, {
      id,
      parent_session_id: parent.id,
      status: 'active',
      agent_type: data.agent_type ?? null,
      agent_program: parent.agentProgram,
      model_id: data.model_id ?? null,
      repo_id: parent.repoId,
      repo_path: parent.repoPath,
      project_id: parent.projectId,
      worktree_id: parent.worktreeId,
      operator_id: parent.operatorId,
      machine_id: parent.machineId,
      delegated: 1,
      title: task === null ? null : (task.split('\n', 1)[0] ?? '').slice(0, 200),
      data: JSON.stringify(task === null ? {} : { goal: task }),
      provenance: JSON.stringify(childProvenance),
      started_at: now,
      updated_at: now,
      ended_at: null,
    });
    return { id, created: true };
  }

  /** Ends a child still open when its delegation finished (cancelled → abandoned). */
  async function endChild(tx: Queryable, childId: string, status: string): Promise<void> {
    if (status === 'started') return;
    const child = await requireSession(tx, childId);
    if (child.status !== 'active' && child.status !== 'paused') return;
    const ended = status === 'cancelled' ? 'abandoned' : status;
    await updateSessionRow(tx, childId, { status: ended, ended_at: clock() }, clock());
  }

  async function log(
    parentId: string,
    data: DelegationData,
    provenance: CallProvenance,
  ): Promise<DelegationLogged> {
    if (data.child_session_id === parentId) {
      throw new InvalidInputError('a session cannot delegate to itself', 'data.child_session_id');
    }
    const task = data.task === undefined ? null : await clean(data.task);
    const result = data.result === undefined ? null : await clean(data.result);
    const status = data.status ?? 'started';
    return store.write(async (tx) => {
      const parent = await requireSession(tx, parentId);
      const child = await childOf(tx, parent, data, task, provenance);
      const before = await delegationBetween(tx, parentId, child.id);
      let id: string;
      if (before === undefined) {
        id = randomUUID();
        await insertDelegation(tx, {
          id,
          parent_session_id: parentId,
          child_session_id: child.id,
          agent_type: data.agent_type ?? null,
          task,
          status,
          result,
          provenance: JSON.stringify(provenance),
          created_at: clock(),
        });
      } else {
        id = before.id;
        await updateDelegationRow(tx, id, status, result);
      }
      await endChild(tx, child.id, status);
      await updateSessionRow(tx, parentId, {}, clock());
      const row = await delegationBetween(tx, parentId, child.id);
      if (row === undefined) throw new Error('delegation vanished inside its transaction');
      return {
        delegation: toDelegation(row),
        child: await requireSession(tx, child.id),
        childCreated: child.created,
        updated: before !== undefined,
      };
    });
  }

  return { log };
}
