// Store-level errors: contention that outlived the retry budget, a database that must exist
// but does not, and driver faults.
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

/** `openSqliteStore(path, { mustExist: true })` found no database file at `path`. */
export class StoreMissingError extends DomainError {
  readonly location: string;
  constructor(location: string, cause?: unknown) {
    super('not_found', `no database at ${location}`, cause === undefined ? undefined : { cause });
    this.location = location;
  }
}
