// Broker refusals: a typed denial (`_meta.denied` { reason, detail }) or a failed executor.
import { DomainError } from '../shared/errors.js';
import type { DeniedReason } from './types.js';

/** A pipeline step refused the call. The message is what the calling model reads. */
export class ToolDeniedError extends DomainError {
  readonly reason: DeniedReason;
  readonly detail: string;
  constructor(reason: DeniedReason, message: string, detail: string = message) {
    super('tool_denied', message, { denied: reason });
    this.reason = reason;
    this.detail = detail;
  }
}

/** The tool ran and failed (a timeout, an upstream error). Not a policy denial. */
export class ToolFailedError extends DomainError {
  constructor(tool: string, message: string, options?: { cause?: unknown }) {
    super('tool_failed', `${tool} failed: ${message}`, options);
  }
}

/** A decision on an approval that is no longer pending (a cancelled one says why). */
export class ApprovalClosedError extends DomainError {
  constructor(id: string, status: string, cancelReason: string | null = null) {
    super(
      'approval_closed',
      status === 'cancelled'
        ? `approval ${id} was cancelled (${cancelReason ?? 'request cancelled'}): nobody is waiting for this call any more, so it can no longer be approved or denied`
        : `approval ${id} is already ${status}`,
    );
  }
}

/**
 * allow_always on a call whose caller is not an authenticated principal (an unbound session:
 * its name is self-reported). The approval stays pending, so it can still be allowed once.
 */
export class GrantRefusedError extends DomainError {
  constructor(id: string, caller: string) {
    super(
      'grant_refused',
      `approval ${id}: ${caller} is an unbound session (its name is self-reported, not authenticated), so it cannot get an allow_always grant; approve it once or deny it`,
    );
  }
}
