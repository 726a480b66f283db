// Test helper for the one timestamp format: finds every time field (createdAt, expiresAt, at,
// …, at any depth) in a JSON answer and reports those that are not ISO 8601 UTC strings.
import { TIME_KEYS } from '../src/shared/index.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `path: value` of every time field in `value` that is neither null nor an ISO 8601 string. */
export function nonIsoTimes(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonIsoTimes(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const here = `${path}.${key}`;
    if (key === 'args' || key === 'payload') return [];
    if (TIME_KEYS.has(key) && v !== null && !(typeof v === 'string' && ISO.test(v))) {
      return [`${here}: ${JSON.stringify(v)}`];
    }
    return nonIsoTimes(v, here);
  });
}

/** How many time fields `value` holds (so a test can show it looked at some). */
export function timeFieldCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + timeFieldCount(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (n, [key, v]) => n + (TIME_KEYS.has(key) && v !== null ? 1 : timeFieldCount(v)),
    0,
  );
}
