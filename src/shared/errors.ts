// Typed domain errors shared by every module. Façades map them to protocol answers;
// domain code never formats protocol responses itself.

/** Base class for expected refusals. `code` is stable and machine-readable. */
export class DomainError extends Error {
  readonly code: string;
  /** Machine-readable denial reason for `_meta.denied`, when the spec defines one. */
  readonly denied: string | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; denied?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.denied = options?.denied;
  }
}

/** The entity does not exist (or is hidden from the caller's scope). */
export class NotFoundError extends DomainError {
  constructor(message: string, options?: { denied?: string }) {
    super('not_found', message, options);
  }
}

/** Another writer won, or the row is not in the state the caller needs. */
export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** A policy cap or rule refused the request. */
export class PolicyError extends DomainError {
  constructor(message: string, denied?: string) {
    super('policy', message, denied === undefined ? undefined : { denied });
  }
}

/** The caller's arguments are semantically invalid (beyond what the schema checks). */
export class InvalidInputError extends DomainError {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super('invalid_input', message);
    this.field = field;
  }
}
