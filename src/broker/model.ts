// Broker vocabulary: tool risks, approval decisions and statuses, and the public shapes of an
// approval and an audit row. Pure data: no imports, no storage, so the dashboard (web/) may
// import these types (as `Wire<T>`: the REST routes send their times as ISO 8601 strings).

export const RISKS = ['safe', 'external', 'destructive'] as const;
export type Risk = (typeof RISKS)[number];

export const APPROVAL_DECISIONS = ['allow_once', 'allow_always', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];
export const APPROVAL_STATUSES = ['pending', 'allowed', 'denied', 'expired', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** What a waiting call records when it asks for a human decision. Times are epoch ms. */
export interface NewApproval {
  id: string;
  callId: string;
  tool: string;
  caller: string;
  /**
   * The authenticated identity an allow_always grant would belong to (`agent:<id>`), or null
   * for an unbound session, which cannot receive one.
   */
  principal: string | null;
  args: unknown;
  reason: string;
  /** The board task this call works for (see the tools server's task rule), or null. */
  taskId: string | null;
  createdAt: number;
  expiresAt: number;
  /**
   * Until when the waiting call vouches that it is still waiting (it renews this while it
   * waits); null on rows written before leases existed.
   */
  leaseUntil: number | null;
}

export interface Approval extends NewApproval {
  /**
   * `pending` past `expiresAt` reads as `expired`; `pending` past `leaseUntil` (the waiter is
   * gone) reads as `cancelled`.
   */
  status: ApprovalStatus;
  decision: ApprovalDecision | null;
  decidedBy: string | null;
  decidedAt: number | null;
  /**
   * Why a cancelled approval was cancelled: `request cancelled…`, `transport closed…`,
   * `session ended…` or `waiter process gone…`; null otherwise.
   */
  cancelReason: string | null;
}

export const GRANT_STATUSES = ['active', 'expired', 'revoked'] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

/**
 * An allow_always grant: `principal`'s calls to `tool` skip the human while it is active (not
 * revoked, not past `expiresAt`; null never expires). Times are epoch ms.
 */
export interface Grant {
  id: string;
  principal: string;
  tool: string;
  /** The approval whose allow_always decision made (or last renewed) it. */
  approvalId: string | null;
  grantedBy: string;
  createdAt: number;
  expiresAt: number | null;
  status: GrantStatus;
  revokedAt: number | null;
  revokedBy: string | null;
}

/** A pending approval as the board marks its task with it. */
export interface TaskApprovalMark {
  id: string;
  tool: string;
  createdAt: number;
  expiresAt: number;
}

/** One audit row: a step of one call (rows of a call share `callId`). `at` is epoch ms. */
export interface AuditEntry {
  id: number;
  at: number;
  callId: string | null;
  tool: string;
  caller: string;
  step: string;
  outcome: string;
  reason: string | null;
  detail: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: number | null;
}

/** The store signal a new, decided or swept approval sends: its id (waits and streams re-read). */
export const APPROVAL_TOPIC = 'approval';
