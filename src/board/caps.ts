// The capped create: depth and child caps for subtasks, the rolling root rate for roots,
// checked and inserted inside the caller's write transaction. The counts are range reads, so
// the transaction must be a SERIALIZABLE write (the default), never a 'rows' one.
import type { Queryable } from '../store/index.js';
import { childCap, depthCap, parentNotFound, rootRateCap } from './errors.js';
import type { RecordedActor } from './events.js';
import type { BoardLimits } from './model.js';
import { countLiveChildren, countRootsSince, findTask } from './queries.js';
import { insertTask } from './rows-ops.js';
import type { TaskRow } from './rows.js';
import type { CreateTaskInput } from './types.js';

/**
 * Checks the caps `input` is under and inserts it.
 * @throws NotFoundError (parent_not_found) or PolicyError (depth_cap, child_cap, root_rate_cap).
 */
export async function insertCappedTask(
  tx: Queryable,
  c: { input: CreateTaskInput; by: RecordedActor; now: number; limits: BoardLimits },
): Promise<TaskRow> {
  const { input, by, now, limits } = c;
  if (input.parentTaskId === undefined) {
    const recent = await countRootsSince(tx, now - limits.rootRateWindowMs);
    if (recent >= limits.rootRateMax) throw rootRateCap(recent, limits);
    return insertTask(tx, input, undefined, now, by);
  }
  const parent = await findTask(tx, input.parentTaskId);
  if (parent === undefined) throw parentNotFound(input.parentTaskId);
  if (parent.depth >= limits.maxDepth) throw depthCap(limits);
  const children = await countLiveChildren(tx, parent.id);
  if (children >= limits.maxChildren) throw childCap(children, limits);
  return insertTask(tx, input, parent, now, by);
}
