// Times as the REST API sends them: every time field is an ISO 8601 string, while the server's
// model types (imported from src/) keep epoch ms. `Wire<T>` is a model type as it arrives.
// Types and one parse helper only; no data fetching here.

/** The time fields of the server's models (kept in step with src/shared/wire-times.ts). */
type TimeKey =
  | 'at'
  | 'createdAt'
  | 'updatedAt'
  | 'expiresAt'
  | 'decidedAt'
  | 'leaseExpiresAt'
  | 'leaseUntil'
  | 'grantExpiresAt'
  | 'lastSeenAt'
  | 'rotatedAt'
  | 'revokedAt'
  | 'topicSetAt'
  | 'openUntil'
  | 'ts'
  | 'indexedAt'
  | 'startedAt'
  | 'endedAt';

/** `T` as the REST API answers with it: a number (or number | null) time field is a string. */
export type Wire<T> = T extends readonly (infer U)[]
  ? Wire<U>[]
  : T extends object
    ? {
        [K in keyof T]: K extends TimeKey
          ? T[K] extends number | null | undefined
            ? Exclude<T[K], number> | string
            : T[K]
          : K extends 'args' | 'payload'
            ? T[K]
            : Wire<T[K]>;
      }
    : T;

/** Epoch ms of an ISO 8601 time from the API (for countdowns and sorting). */
export const msOf = (iso: string): number => Date.parse(iso);
