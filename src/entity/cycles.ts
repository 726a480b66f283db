// Dependency-cycle refusal for the project tool's dependency rows (as the board refuses task
// cycles): adding `from → to` ("from depends on to") is refused when `to` already reaches
// `from`, and the refusal names the cycle. Breadth-first over the project's edges, bounded.
import { entityRowsWhere, type Queryable } from '../store/index.js';
import { DependencyCycleError } from './errors.js';

/** Most edges one project's cycle check reads. */
const MAX_EDGES = 100_000;

/**
 * Refuses the edge `from → to` in `project` when it would close a cycle (a self-edge included).
 * `ignore` leaves one existing edge out (an update re-checks its own row).
 * @throws DependencyCycleError naming the cycle, from `from` back to `from`.
 */
export async function refuseCycle(
  tx: Queryable,
  table: string,
  edge: { project: string; from: string; to: string; ignore?: string },
): Promise<void> {
  if (edge.from === edge.to) throw new DependencyCycleError([edge.from, edge.from]);
  const rows = await entityRowsWhere(tx, table, { project_id: edge.project }, { limit: MAX_EDGES });
  const next = new Map<string, string[]>();
  for (const r of rows) {
    if (r.id === edge.ignore) continue;
    const from = String(r['from_id']);
    next.set(from, [...(next.get(from) ?? []), String(r['depends_on_id'])]);
  }
  const cameFrom = new Map<string, string>([[edge.to, edge.from]]);
  const queue = [edge.to];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i] as string;
    if (at === edge.from) throw new DependencyCycleError(pathTo(cameFrom, edge.from, edge.to));
    for (const n of next.get(at) ?? []) {
      if (cameFrom.has(n)) continue;
      cameFrom.set(n, at);
      queue.push(n);
    }
  }
}

/** The cycle from → to → … → from, read back through `cameFrom`. */
function pathTo(cameFrom: Map<string, string>, from: string, to: string): string[] {
  const back: string[] = [from];
  let at = cameFrom.get(from);
  while (at !== undefined && at !== to && back.length <= cameFrom.size) {
    back.push(at);
    at = cameFrom.get(at);
  }
  back.push(to, from);
  return back.reverse();
}
