// The task board: state machine, atomic claims, leases, caps and dependencies.
export {
  type Actor,
  type Board,
  type BoardOptions,
  type ClaimInput,
  type CommentInput,
  createBoard,
  type CreateTaskInput,
  type TaskDetail,
} from './board.js';
export { NotHolderError, TransitionError } from './errors.js';
export {
  AUTHOR_TYPES,
  type AuthorType,
  type BoardLimits,
  canMove,
  DEFAULT_LEASE_MS,
  DEFAULT_LIMITS,
  type Task,
  type TaskComment,
  TASK_STATUSES,
  type TaskStatus,
} from './model.js';
export type { TaskFilter } from './queries.js';
export {
  addCommentInput,
  claimNextReadyInput,
  claimTaskInput,
  createSubtaskInput,
  createTaskInput,
  LIMITS as BOARD_INPUT_LIMITS,
  linkTaskInput,
  listTasksInput,
  renewClaimInput,
  taskIdInput,
  updateTaskStatusInput,
} from './schemas.js';
