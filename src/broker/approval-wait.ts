// Step 4 of the pipeline: external and destructive tools wait for a human decision recorded
// in the database (CLI, REST, any process), unless the caller's authenticated principal holds
// an active allow_always grant (re-read on every call, so a revocation applies at once).
// A wait whose caller is gone (signal aborted, lease lapsed) ends cancelled and never runs.
// The wait re-reads its row when the approval signal names it (any replica on PostgreSQL), else
// every approvalPollMs (at least SIGNAL_SAFETY_POLL_MS where signals reach every process).
import { randomUUID } from 'node:crypto';

import { ROW_LOCKS, SIGNAL_SAFETY_POLL_MS, type Store } from '../store/index.js';
import { cancelAbandoned, renewLease } from './approval-lease.js';
import { closeApproval, findApproval, insertApproval } from './approvals.js';
import { appendAudit } from './audit.js';
import type { BrokerConfig } from './config.js';
import { ToolDeniedError, ToolFailedError } from './errors.js';
import { findActiveGrant } from './grants.js';
import { type Approval, APPROVAL_TOPIC, type Risk } from './model.js';
import type { WaitingInfo } from './types.js';

export interface ApprovalContext {
  store: Store;
  config: BrokerConfig;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  callId: string;
  tool: string;
  risk: Risk;
  caller: string;
  /** The authenticated identity grants belong to (`agent:<id>`); absent for an unbound caller. */
  principal?: string | undefined;
  args: unknown;
  signal: AbortSignal | undefined;
  onWaiting: ((info: WaitingInfo) => void) | undefined;
  /** Names the board task the call works for; asked only when an approval row is written. */
  resolveTask?: (() => Promise<string | null>) | undefined;
  /** Records this step's outcome in the call's audit trail (the pipeline decides when it is
   * written); when absent, each outcome is appended at once. */
  audit?: Audit | undefined;
}

type Audit = (outcome: string, detail?: unknown) => Promise<void>;

/** Why a human must look at this call (stored on the approval and shown to deciders). */
const reasonFor = (tool: string, risk: Risk): string =>
  risk === 'destructive'
    ? `${tool} is destructive: a human must approve each call`
    : `${tool} has an external side effect: a human must approve each call`;

/**
 * Resolves when the call may run; throws ToolDeniedError (`approval_denied`,
 * `approval_expired`) or ToolFailedError (the caller is gone: its signal aborted, or its lease
 * lapsed) otherwise. While it waits it renews its lease on the pending row.
 */
export async function awaitApproval(ctx: ApprovalContext): Promise<void> {
  const audit: Audit =
    ctx.audit ??
    ((outcome, detail) =>
      appendAudit(ctx.store, {
        at: ctx.now(),
        callId: ctx.callId,
        tool: ctx.tool,
        caller: ctx.caller,
        step: 'approval',
        outcome,
        detail,
      }));
  if (ctx.risk === 'safe') return audit('not_required', { risk: ctx.risk });
  const grant =
    ctx.principal === undefined
      ? undefined
      : await findActiveGrant(ctx.store, ctx.principal, ctx.tool, ctx.now());
  if (grant !== undefined) {
    return audit('granted', {
      grant: 'allow_always',
      grantId: grant.id,
      principal: grant.principal,
    });
  }
  const id = randomUUID();
  const createdAt = ctx.now();
  const expiresAt = createdAt + ctx.config.approvalTtlMs;
  const reason = reasonFor(ctx.tool, ctx.risk);
  // Resolved outside the write transaction: the resolver reads the board.
  const taskId = (await ctx.resolveTask?.()) ?? null;
  await ctx.store.write(async (tx) => {
    const base = { id, callId: ctx.callId, tool: ctx.tool, caller: ctx.caller };
    const leaseUntil = createdAt + ctx.config.approvalLeaseMs;
    const row = { ...base, principal: ctx.principal ?? null, args: ctx.args, reason, taskId };
    await insertApproval(tx, { ...row, createdAt, expiresAt, leaseUntil });
    await appendAudit(tx, {
      ...{ at: createdAt, callId: ctx.callId, tool: ctx.tool, caller: ctx.caller },
      step: 'approval',
      outcome: 'pending',
      detail: { approvalId: id, reason, expiresAt, ...(taskId === null ? {} : { taskId }) },
    });
    await ctx.store.signals.notify(tx, APPROVAL_TOPIC, id);
  });
  return waitForDecision(ctx, audit, { id, createdAt, expiresAt });
}

/** Settles a decided row: returns on allow, throws on deny. Null while still pending. */
async function settle(ctx: ApprovalContext, audit: Audit, row: Approval): Promise<true | null> {
  if (row.status === 'allowed') {
    await audit('allowed', { approvalId: row.id, decision: row.decision });
    return true;
  }
  if (row.status !== 'denied') return null;
  await audit('denied', { approvalId: row.id, decidedBy: row.decidedBy });
  throw new ToolDeniedError(
    'approval_denied',
    `denied: a human refused this ${ctx.tool} call (approval ${row.id})`,
    `approval ${row.id} denied by ${row.decidedBy ?? 'unknown'}`,
  );
}

async function expire(ctx: ApprovalContext, audit: Audit, row: Approval): Promise<never> {
  await audit('expired', { approvalId: row.id });
  const secs = Math.round(ctx.config.approvalTtlMs / 1000);
  throw new ToolDeniedError(
    'approval_expired',
    `approval expired: nobody decided on this ${ctx.tool} call within ${secs} s (approval ${row.id})`,
    `approval ${row.id} expired at ${new Date(row.expiresAt).toISOString()}`,
  );
}

/** Why the wait stopped: the reason the façade gave the signal, else a generic one. */
const cancelReasonOf = (signal: AbortSignal): string =>
  typeof signal.reason === 'string' && signal.reason !== ''
    ? signal.reason.slice(0, 300)
    : 'request cancelled';

const gone = (ctx: ApprovalContext): boolean => ctx.signal?.aborted === true;

/** Naps between reads of one approval row, cut short by the call's abort or the row's signal. */
interface Napper {
  nap(ms: number): Promise<void>;
  stop(): void;
}

/**
 * Sleeps up to `ms` per nap; a nap ends at once when the call's signal aborts or a store signal
 * names approval `id` (or says some may have been missed), also one that came while awake.
 */
function napper(ctx: ApprovalContext, id: string): Napper {
  let poked = false;
  let wake: (() => void) | undefined;
  const off = ctx.store.signals.subscribe(APPROVAL_TOPIC, (payload) => {
    if (payload !== null && payload !== id) return;
    poked = true;
    wake?.();
  });
  return {
    nap(ms) {
      const signal = ctx.signal;
      if (poked || signal?.aborted === true) {
        poked = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = (): void => {
          signal?.removeEventListener('abort', done);
          wake = undefined;
          poked = false;
          resolve();
        };
        wake = done;
        signal?.addEventListener('abort', done, { once: true });
        void ctx.sleep(ms).then(done);
      });
    },
    stop: off,
  };
}

const cancelledError = (ctx: ApprovalContext, reason: string | null): ToolFailedError =>
  new ToolFailedError(
    ctx.tool,
    `the call was cancelled while waiting for approval (${reason ?? 'request cancelled'})`,
  );

/**
 * The caller is gone (cancelled, transport closed, session ended): close the row as cancelled
 * with the reason. The call never runs, even if a human allowed it a moment before.
 */
async function abandon(ctx: ApprovalContext, audit: Audit, id: string): Promise<never> {
  const reason = cancelReasonOf(ctx.signal ?? AbortSignal.abort());
  const now = ctx.now();
  const closed = await closeApproval(ctx.store, id, 'cancelled', now, reason);
  const row = closed ? undefined : await findApproval(ctx.store, id, now);
  const late = row === undefined ? {} : { status: row.status, decision: row.decision };
  await audit('cancelled', { approvalId: id, reason, ...late });
  throw cancelledError(ctx, reason);
}

/** The row reads as cancelled without this call closing it: its lease lapsed (or was swept). */
async function lapsed(ctx: ApprovalContext, row: Approval, now: number): Promise<never> {
  // One conditional UPDATE (still pending) on one row: correct under its row lock alone.
  if (row.decidedAt === null) {
    await ctx.store.write((tx) => cancelAbandoned(tx, row, now), ROW_LOCKS);
  }
  throw cancelledError(ctx, row.cancelReason);
}

async function waitForDecision(
  ctx: ApprovalContext,
  audit: Audit,
  pending: { id: string; createdAt: number; expiresAt: number },
): Promise<void> {
  const naps = napper(ctx, pending.id);
  try {
    await decisionLoop(ctx, audit, pending, naps);
  } finally {
    naps.stop();
  }
}

async function decisionLoop(
  ctx: ApprovalContext,
  audit: Audit,
  pending: { id: string; createdAt: number; expiresAt: number },
  naps: Napper,
): Promise<void> {
  const { id, createdAt, expiresAt } = pending;
  const { progressEveryMs, approvalLeaseMs } = ctx.config;
  const approvalPollMs =
    ctx.store.signals.reach === 'database'
      ? Math.max(ctx.config.approvalPollMs, SIGNAL_SAFETY_POLL_MS)
      : ctx.config.approvalPollMs;
  const renewEvery = Math.max(1, Math.floor(approvalLeaseMs / 3));
  let reportedAt = -Infinity;
  let renewedAt = createdAt;
  for (;;) {
    const now = ctx.now();
    if (now - reportedAt >= progressEveryMs) {
      reportedAt = now;
      ctx.onWaiting?.({ approvalId: id, elapsedMs: now - createdAt, expiresAt });
    }
    if (gone(ctx)) return abandon(ctx, audit, id);
    if (now >= expiresAt) await closeApproval(ctx.store, id, 'expired', now);
    else if (now - renewedAt >= renewEvery) {
      await renewLease(ctx.store, id, now, approvalLeaseMs);
      renewedAt = now;
    }
    const row = await findApproval(ctx.store, id, now);
    if (row === undefined) throw new ToolFailedError(ctx.tool, `approval ${id} disappeared`);
    if (row.status === 'cancelled') return lapsed(ctx, row, now);
    // Aborted while the row was read: a just-allowed call still must not run.
    if (row.status === 'allowed' && gone(ctx)) return abandon(ctx, audit, id);
    if ((await settle(ctx, audit, row)) === true) return;
    if (row.status !== 'pending') return expire(ctx, audit, row);
    const wake = [reportedAt + progressEveryMs, renewedAt + renewEvery, expiresAt];
    await naps.nap(Math.max(1, Math.min(approvalPollMs, ...wake.map((t) => t - now))));
  }
}
