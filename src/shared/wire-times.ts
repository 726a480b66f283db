// One timestamp format on the way out: domains keep times as epoch ms, and each façade (REST
// and SSE, CLI output, MCP tool results) passes what it sends through `isoTimes`, which turns
// the number under a time field into an ISO 8601 string. Pure; no I/O.

const TIME_FIELDS = [
  'at',
  'createdAt',
  'updatedAt',
  'expiresAt',
  'decidedAt',
  'leaseExpiresAt',
  'leaseUntil',
  'grantExpiresAt',
  'lastSeenAt',
  'rotatedAt',
  'revokedAt',
  'topicSetAt',
  'openUntil',
  'startedAt',
  'finishedAt',
  'endedAt',
  'releasedAt',
  'heartbeatAt',
  'indexedAt',
  'builtAt',
  'ts',
  'indexedAt',
] as const;
/** A field that holds a time. A number there is epoch ms. */
export type TimeKey = (typeof TIME_FIELDS)[number];
export const TIME_KEYS: ReadonlySet<string> = new Set(TIME_FIELDS);

/** Fields holding a caller's own JSON (tool arguments, envelope payloads): left as sent. */
const OPAQUE_FIELDS = ['args', 'payload'] as const;
type OpaqueKey = (typeof OPAQUE_FIELDS)[number];
const OPAQUE_KEYS: ReadonlySet<string> = new Set(OPAQUE_FIELDS);

/** `T` as it goes out: a number (or number | null) under a time field becomes a string. */
export type WireTimes<T> = T extends readonly (infer U)[]
  ? WireTimes<U>[]
  : T extends object
    ? {
        [K in keyof T]: K extends TimeKey
          ? T[K] extends number | null | undefined
            ? Exclude<T[K], number> | string
            : T[K]
          : K extends OpaqueKey
            ? T[K]
            : WireTimes<T[K]>;
      }
    : T;

/** Epoch ms as ISO 8601 UTC (`2026-05-01T12:00:00.000Z`). */
export const isoTime = (ms: number): string => new Date(ms).toISOString();

/**
 * `value` with every finite number under a time field (see `TIME_KEYS`, at any depth) as an
 * ISO 8601 string. A copy: the input is not changed. Tool arguments and envelope payloads are
 * not looked into; strings, nulls and other fields pass through.
 */
export function isoTimes<T>(value: T): WireTimes<T> {
  return convert(value) as WireTimes<T>;
}

function convert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convert);
  if (typeof value !== 'object' || value === null) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (TIME_KEYS.has(key) && typeof v === 'number' && Number.isFinite(v)) out[key] = isoTime(v);
    else out[key] = OPAQUE_KEYS.has(key) ? v : convert(v);
  }
  return out;
}
