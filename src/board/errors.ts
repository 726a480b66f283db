// Board refusals with the spec's texts. Each message is what the calling model reads.
import { ConflictError, DomainError, NotFoundError, PolicyError } from '../shared/errors.js';
import type { BoardLimits, TaskStatus } from './model.js';

export class TransitionError extends DomainError {
  constructor(message: string) {
    super('illegal_transition', message);
  }
}

export class NotHolderError extends DomainError {
  constructor(message: string) {
    super('not_holder', message);
  }
}

export const taskNotFound = (id: string): NotFoundError => new NotFoundError(`not found: ${id}`);

export const parentNotFound = (id: string): NotFoundError =>
  new NotFoundError(`parent not found: ${id}`, { denied: 'parent_not_found' });

export const depthCap = (limits: BoardLimits): PolicyError =>
  new PolicyError(
    `subtask rejected: parent is at the maximum nesting depth (${limits.maxDepth}); attach the new task higher in the tree`,
    'depth_cap',
  );

export const childCap = (count: number, limits: BoardLimits): PolicyError =>
  new PolicyError(
    `subtask rejected: parent already has ${count} children (max ${limits.maxChildren}); drop one or attach the new task elsewhere`,
    'child_cap',
  );

export const rootRateCap = (count: number, limits: BoardLimits): PolicyError =>
  new PolicyError(
    `task rejected: ${count} root tasks already created in the last ${Math.round(limits.rootRateWindowMs / 60_000)} min (max ${limits.rootRateMax}); wait for the window to roll or file the work as subtasks of an existing task`,
    'root_rate_cap',
  );

export const claimConflict = (
  id: string,
  status: TaskStatus,
  assignee: string | null,
): ConflictError =>
  new ConflictError(
    `conflict: task ${id} is not claimable (status ${status}${assignee === null ? '' : `, assigned to ${assignee}`}); another agent won, do not retry`,
  );

/** An unfinished dependency as a refusal names it. */
export interface UnmetDependency {
  id: string;
  title: string;
  status: TaskStatus;
}

/** How many unfinished dependencies a refusal lists (the rest are counted). */
export const UNMET_LISTED = 5;
const TITLE_SHOWN = 80;

const shown = (title: string): string =>
  JSON.stringify(title.length <= TITLE_SHOWN ? title : `${title.slice(0, TITLE_SHOWN - 1)}…`);

/**
 * A claim of a task whose dependencies are not all done (`_meta.denied.reason`
 * dependencies_unmet): names up to UNMET_LISTED of them, id, title and status, and counts the rest.
 */
export const dependenciesUnmet = (
  id: string,
  unmet: readonly UnmetDependency[],
  total: number,
): PolicyError => {
  const named = unmet.slice(0, UNMET_LISTED).map((d) => `${d.id} ${shown(d.title)} (${d.status})`);
  const more = total > named.length ? `, and ${total - named.length} more` : '';
  return new PolicyError(
    `claim refused: task ${id} has ${total} unfinished ${total === 1 ? 'dependency' : 'dependencies'}: ${named.join(', ')}${more}; it is claimable once they are done (list_tasks ready=true shows claimable work)`,
    'dependencies_unmet',
  );
};

export const cycle = (taskId: string, dependsOnTaskId: string): DomainError =>
  new DomainError(
    'cycle',
    `linking ${taskId} to ${dependsOnTaskId} would create a dependency cycle`,
  );
