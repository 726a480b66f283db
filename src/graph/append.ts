// Appending observations as the official server's add_observations does: only those the entity
// does not hold yet (repeats inside `contents` are kept), inside the caller's write transaction.
import type { GraphIndex, Queryable } from '../store/index.js';

/** Appends the observations of `contents` the entity lacks; returns them, in order. */
export async function appendNew(
  tx: Queryable,
  index: GraphIndex,
  at: { graphId: number; now: number },
  entityId: number,
  contents: readonly string[],
): Promise<string[]> {
  const [row] = await index.entities(tx, at.graphId, [entityId]);
  const held = new Set(row?.observations ?? []);
  const added = contents.filter((c) => !held.has(c));
  await index.addObservations(tx, entityId, added, at.now);
  return added;
}
