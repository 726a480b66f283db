// The search indexes not yet ported to PostgreSQL (issue 16, in progress): every operation
// refuses with a clear error instead of running SQLite-only SQL against the server.
import { DomainError } from '../../shared/errors.js';

export class StoreUnsupportedError extends DomainError {
  constructor(what: string) {
    super('unavailable', `${what} is not available on the PostgreSQL backend yet`);
  }
}

/** An object whose every method rejects with StoreUnsupportedError naming `what.method`. */
export function unported<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: (_target, prop) =>
      typeof prop === 'string' && prop !== 'then'
        ? (): Promise<never> => Promise.reject(new StoreUnsupportedError(`${what}.${prop}`))
        : undefined,
  });
}
