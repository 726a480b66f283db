// The task board: state machine, atomic claims, leases, caps and dependencies.
export { type Board, createBoard } from './board.js';
export type {
  Actor,
  ActorOrigin,
  BoardOptions,
  ClaimInput,
  CommentInput,
  CreateTaskInput,
  DelegatedTaskInput,
  TaskDetail,
} from './types.js';
export { NotHolderError, TransitionError } from './errors.js';
export {
  addressInbox,
  type InboxDelivery,
  type InboxEntry,
  type InboxItem,
  type InboxKind,
  mentionsIn,
  messageEntries,
  takeInbox,
} from './inbox.js';
export {
  ACTOR_VIAS,
  type ActorVia,
  AUTHOR_TYPES,
  type AuthorType,
  type BoardLimits,
  canMove,
  DEFAULT_LEASE_MS,
  DEFAULT_LIMITS,
  type Task,
  type TaskComment,
  type TaskEvent,
  TASK_STATUSES,
  type TaskStatus,
} from './model.js';
export type { TaskFilter } from './queries.js';
export {
  CAP_REFUSALS,
  createRefusalCircuit,
  type OpenCircuit,
  type RefusalCircuit,
  type RefusalCircuitPolicy,
} from './refusal-circuit.js';
export type { TaskRelations } from './relations.js';
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
