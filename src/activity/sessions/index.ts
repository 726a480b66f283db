// Agent sessions and activity (cairn-context's session and agent families): sessions with
// provenance, tool calls and delegations logged against them, and their extractive summaries.
export { type DelegationLogged } from './delegation.js';
export { filesTouched } from './files.js';
export {
  DELEGATION_STATUSES,
  type Delegation,
  type DelegationStatus,
  ENDED_STATUSES,
  type Session,
  type SessionDetail,
  type SessionList,
  type SessionListStatus,
  SESSION_STATUSES,
  type SessionStatus,
  type SessionSummary,
  type SummaryDelegation,
  type SummaryError,
  type SummaryResult,
  type TimelineEntry,
  type ToolCall,
  type ToolUse,
} from './model.js';
export {
  ACTIVITY_LIMIT,
  createData,
  type CreateData,
  type DelegationData,
  getSessionInput,
  idText,
  LIST_LIMIT,
  listSessionsInput,
  logDelegationInput,
  logToolCallInput,
  parseData,
  startSessionInput,
  summarizeSessionInput,
  type ToolCallData,
  updateData,
  type UpdateData,
} from './schemas.js';
export {
  type CallProvenance,
  type CreateInput,
  createSessions,
  type Sessions,
  type SessionsOptions,
} from './service.js';
export { type SessionMemory, SUMMARY_CALLS } from './summarize.js';
export { buildSummary, summaryHash, type SummaryInputs, summaryKey } from './summary.js';
export { durationText, summaryText } from './summary-text.js';
