// Store-level errors: contention that outlived the retry budget, and driver faults.
import { DomainError } from '../shared/errors.js';

/** Lock contention did not clear within the retry budget. Safe to retry later. */
export class StoreBusyError extends DomainError {
  constructor(cause: unknown) {
    super('busy', 'busy: the database stayed locked by other writers; retry shortly', { cause });
  }
}

/** True for driver errors that mean "another connection holds the lock". */
export function isBusyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
  );
}
