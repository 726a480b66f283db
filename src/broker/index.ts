// The tool broker: tool descriptors, the gated call pipeline, approvals, audit and notes.
export type { ApprovalQuery } from './approvals.js';
export { type AuditEntryInput, type AuditQuery, appendAudit, listAudit } from './audit.js';
export { type Broker, type BrokerOptions, createBroker } from './broker.js';
export { WEB_SEARCH_MAX_LIMIT } from './builtins.js';
export { type CircuitKey, type CircuitPolicy, POLICY_DENIALS, tripWhenReached } from './circuit.js';
export { TRUNCATION_MARKER } from './compaction.js';
export { type BrokerConfig, brokerConfigFromEnv, DEFAULT_BROKER_CONFIG } from './config.js';
export {
  ApprovalClosedError,
  GrantRefusedError,
  ToolDeniedError,
  ToolFailedError,
} from './errors.js';
export { agentPrincipal, type GrantQuery } from './grants.js';
export { type InjectionFinding, scanText } from './injection.js';
export {
  APPROVAL_DECISIONS,
  APPROVAL_STATUSES,
  type Approval,
  type ApprovalDecision,
  type ApprovalStatus,
  type AuditEntry,
  type AuditPage,
  GRANT_STATUSES,
  type Grant,
  type GrantStatus,
  type Risk,
  RISKS,
  type TaskApprovalMark,
} from './model.js';
export type { Note } from './notes.js';
export {
  approvalDecisionInput,
  approvalListInput,
  auditQueryInput,
  deletePathInput,
  echoInput,
  grantListInput,
  noteInput,
  TOOL_LIMITS,
  webSearchInput,
} from './schemas.js';
export {
  type CallInput,
  type CallResult,
  DENIED_REASONS,
  type DeniedReason,
  type ListedTool,
  type ToolDescriptor,
  type WaitingInfo,
} from './types.js';
