// The broker service: the tool registry (listing filtered by availability), the call
// pipeline, and the human side (approvals, audit, notes) that the CLI and REST call directly.
import { NotFoundError } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { sweepAbandoned } from './approval-lease.js';
import {
  type ApprovalQuery,
  decideApproval,
  findApproval,
  selectApprovals,
  selectPendingByTask,
  selectTaskApprovalsMark,
} from './approvals.js';
import { type AuditQuery, listAudit } from './audit.js';
import { builtinTools } from './builtins.js';
import { type BrokerConfig, DEFAULT_BROKER_CONFIG } from './config.js';
import { type GrantQuery, revokeGrant, selectGrants } from './grants.js';
import {
  type Approval,
  type ApprovalDecision,
  APPROVAL_TOPIC,
  type AuditPage,
  type Grant,
  type TaskApprovalMark,
} from './model.js';
import { type Note, selectNotes } from './notes.js';
import { runPipeline } from './pipeline.js';
import type { CallInput, CallResult, ListedTool, ToolDescriptor, ToolEnv } from './types.js';

export interface BrokerOptions {
  config?: Partial<BrokerConfig> | undefined;
  /** Environment the availability predicates read (TAVILY_API_KEY). Default: none set. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  fetch?: typeof fetch | undefined;
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: (() => number) | undefined;
  /** How a waiting call sleeps between polls (tests may shorten it). */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Replaces the builtin descriptors (tests). */
  tools?: readonly ToolDescriptor[] | undefined;
}

export type Broker = ReturnType<typeof createBroker>;

const listed = (t: ToolDescriptor): ListedTool => ({
  name: t.name,
  description: t.description,
  input: t.input,
  risk: t.risk,
});

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A signal that aborts when either does, with the first one's reason (AbortSignal.any). */
function either(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  if (a === undefined) return b;
  const both = new AbortController();
  const from = (s: AbortSignal) => (): void => both.abort(s.reason);
  if (a.aborted || b.aborted) both.abort(a.aborted ? a.reason : b.reason);
  else {
    a.addEventListener('abort', from(a), { once: true, signal: both.signal });
    b.addEventListener('abort', from(b), { once: true, signal: both.signal });
  }
  return both.signal;
}

/** Why this process's own waits end when the broker closes (the process is exiting). */
const CLOSING = 'waiter process gone: the server process is shutting down';

/** Builds the broker over a store. Holds no timers and opens nothing. */
export function createBroker(store: Store, options: BrokerOptions = {}) {
  const config: BrokerConfig = { ...DEFAULT_BROKER_CONFIG, ...options.config };
  const now = options.clock ?? Date.now;
  const toolEnv: ToolEnv = { env: options.env ?? {}, fetch: options.fetch ?? fetch };
  const registry = options.tools ?? builtinTools(config.tavilyUrl);
  const tools = new Map(registry.map((t) => [t.name, t]));
  const deps = { store, config, tools, toolEnv, now, sleep: options.sleep ?? realSleep };
  const closing = new AbortController();
  const running = new Set<Promise<unknown>>();

  return {
    config,
    /** Tools whose availability holds right now; hidden ones are absent. */
    listTools: (): ListedTool[] => registry.filter((t) => t.available(toolEnv)).map(listed),
    /**
     * Runs one call through the pipeline.
     * @throws ToolDeniedError (typed refusal), ToolFailedError (failed or timed out).
     */
    call(input: CallInput): Promise<CallResult> {
      const call = runPipeline(deps, { ...input, signal: either(input.signal, closing.signal) });
      const settled = call.then(
        () => undefined,
        () => undefined,
      );
      running.add(settled);
      void settled.then(() => running.delete(settled));
      return call;
    },
    /**
     * Ends this process's calls (a waiting one is cancelled with its reason on record) and
     * waits for them to finish writing; call it before closing the store.
     */
    async close(): Promise<void> {
      closing.abort(CLOSING);
      await Promise.all([...running]);
    },
    /**
     * Cancels (and audits) pending approvals whose waiter is gone (its lease lapsed: a killed
     * process); returns how many. A serving process runs this on a timer.
     */
    sweepAbandonedApprovals(): Promise<number> {
      return sweepAbandoned(store, now());
    },
    /**
     * Calls `listener` when an approval is created, decided or swept (on PostgreSQL by any
     * replica), or when such a signal may have been missed; returns the unsubscribe. Streams
     * re-read on it.
     */
    onApprovalSignal(listener: () => void): () => void {
      return store.signals.subscribe(APPROVAL_TOPIC, () => listener());
    },
    /** Whether onApprovalSignal hears other processes (PostgreSQL) or this one only (SQLite). */
    approvalSignalsEverywhere: store.signals.reach === 'database',
    listApprovals(query: ApprovalQuery = {}): Promise<Approval[]> {
      return selectApprovals(store, query, now());
    },
    /** Pending, unexpired approvals linked to a task, by task id (one query, for the board). */
    pendingApprovalsByTask(): Promise<Map<string, TaskApprovalMark[]>> {
      return selectPendingByTask(store, now());
    },
    /** Changes whenever a task-linked approval is created or closed (see board streams). */
    taskApprovalsMark(): Promise<string> {
      return selectTaskApprovalsMark(store);
    },
    /** @throws NotFoundError `not found: <id>`. */
    async getApproval(id: string): Promise<Approval> {
      const found = await findApproval(store, id, now());
      if (found === undefined) throw new NotFoundError(`not found: ${id}`);
      return found;
    },
    /**
     * Decides a pending approval; allow_always also grants its principal the tool, until
     * `options.grantExpiresAt` (epoch ms) when given.
     * @throws NotFoundError, ApprovalClosedError (already decided or expired), GrantRefusedError
     * (allow_always for an unbound caller), InvalidInputError (an expiry not in the future).
     */
    decide(
      id: string,
      decision: ApprovalDecision,
      decidedBy = 'human',
      options: { grantExpiresAt?: number | null | undefined } = {},
    ): Promise<Approval> {
      const grantExpiresAt = options.grantExpiresAt;
      return decideApproval(store, { id, decision, decidedBy, now: now(), grantExpiresAt });
    },
    /** allow_always grants, newest first; by default only the active ones. */
    listGrants(query: GrantQuery = {}): Promise<Grant[]> {
      return selectGrants(store, query, now());
    },
    /**
     * Revokes a grant: the principal's next call to that tool waits for a human again.
     * @throws NotFoundError (unknown id), ConflictError (already revoked).
     */
    revokeGrant(id: string, revokedBy = 'human'): Promise<Grant> {
      return revokeGrant(store, { id, revokedBy, now: now() });
    },
    listAudit(query: AuditQuery = {}): Promise<AuditPage> {
      return listAudit(store, query);
    },
    listNotes(
      query: { caller?: string | undefined; limit?: number | undefined } = {},
    ): Promise<Note[]> {
      return selectNotes(store, query);
    },
  };
}
