// The search operations not yet ported to PostgreSQL (issue 16, in progress): every such
// operation refuses with a clear error instead of running SQLite-only SQL against the server.
import { DomainError } from '../../shared/errors.js';

export class StoreUnsupportedError extends DomainError {
  constructor(what: string) {
    super('unavailable', `${what} is not available on the PostgreSQL backend yet`);
  }
}

/** An object whose every method rejects with StoreUnsupportedError naming `what.method`. */
export function unported<T extends object>(what: string): T {
  return partlyPorted<T>(what, {});
}

/**
 * `ported`'s operations, and for every other method one that rejects with
 * StoreUnsupportedError naming `what.method`.
 */
export function partlyPorted<T extends object>(what: string, ported: Partial<T>): T {
  return new Proxy(ported as T, {
    get: (target, prop) => {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      if (Object.hasOwn(target, prop)) return target[prop as keyof T];
      return (): Promise<never> => Promise.reject(new StoreUnsupportedError(`${what}.${prop}`));
    },
  });
}
