// Step 4 of the pipeline: external and destructive tools wait for a human decision recorded
// in the database (CLI, REST, any process), unless the caller's authenticated principal holds
// an active allow_always grant (re-read on every call, so a revocation applies at once).
import { randomUUID } from 'node:crypto';

import type { Store } from '../store/index.js';
import { closeApproval, findApproval, insertApproval } from './approvals.js';
import { appendAudit } from './audit.js';
import type { BrokerConfig } from './config.js';
import { ToolDeniedError, ToolFailedError } from './errors.js';
import { findActiveGrant } from './grants.js';
import type { Approval, Risk } from './model.js';
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
 * `approval_expired`) or ToolFailedError (the client cancelled) otherwise.
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
    const row = { ...base, principal: ctx.principal ?? null, args: ctx.args, reason, taskId };
    await insertApproval(tx, { ...row, createdAt, expiresAt });
    await appendAudit(tx, {
      ...{ at: createdAt, callId: ctx.callId, tool: ctx.tool, caller: ctx.caller },
      step: 'approval',
      outcome: 'pending',
      detail: { approvalId: id, reason, expiresAt, ...(taskId === null ? {} : { taskId }) },
    });
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

async function waitForDecision(
  ctx: ApprovalContext,
  audit: Audit,
  pending: { id: string; createdAt: number; expiresAt: number },
): Promise<void> {
  const { id, createdAt, expiresAt } = pending;
  let reportedAt = -Infinity;
  for (;;) {
    const now = ctx.now();
    if (now - reportedAt >= ctx.config.progressEveryMs) {
      reportedAt = now;
      ctx.onWaiting?.({ approvalId: id, elapsedMs: now - createdAt, expiresAt });
    }
    if (ctx.signal?.aborted === true && (await closeApproval(ctx.store, id, 'cancelled', now))) {
      await audit('cancelled', { approvalId: id });
      throw new ToolFailedError(ctx.tool, 'the call was cancelled while waiting for approval');
    }
    if (now >= expiresAt) await closeApproval(ctx.store, id, 'expired', now);
    const row = await findApproval(ctx.store, id, now);
    if (row === undefined) throw new ToolFailedError(ctx.tool, `approval ${id} disappeared`);
    if ((await settle(ctx, audit, row)) === true) return;
    if (row.status !== 'pending') return expire(ctx, audit, row);
    await ctx.sleep(Math.min(ctx.config.approvalPollMs, Math.max(1, expiresAt - now)));
  }
}
