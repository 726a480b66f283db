// A small monotonic ULID generator (26 Crockford base-32 characters: 48-bit millisecond time,
// 80 random bits). Within one millisecond the random part increments, so ids sort in the
// order they were made. Pure apart from node:crypto; no clock of its own.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_MAX = 2 ** 48 - 1;

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = (ALPHABET[t % 32] ?? '0') + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/** 80 bits as 16 base-32 digits (each digit 0–31). */
function randomDigits(): number[] {
  const bytes = randomBytes(16);
  return Array.from(bytes, (b) => b & 31);
}

/** Adds one to the digits in place; false when they overflow (all 31s). */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = digits[i] ?? 0;
    if (d < 31) {
      digits[i] = d + 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

export type UlidFactory = (now: number) => string;

/**
 * Returns a ULID factory. Ids from one factory are strictly increasing, even when the clock
 * stands still or steps back (the last time is reused and the random part incremented).
 * @throws RangeError for a time outside 0..2^48-1, or 2^80 ids in one millisecond.
 */
export function createUlidFactory(): UlidFactory {
  let lastTime = -1;
  let last: number[] = [];
  return (now: number): string => {
    const ms = Math.floor(now);
    if (!Number.isFinite(ms) || ms < 0 || ms > TIME_MAX)
      throw new RangeError(`bad ULID time ${now}`);
    if (ms > lastTime) {
      lastTime = ms;
      last = randomDigits();
    } else if (!increment(last)) {
      throw new RangeError('ULID random part overflowed within one millisecond');
    }
    return encodeTime(lastTime) + last.map((d) => ALPHABET[d] ?? '0').join('');
  };
}

const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** True for a well-formed ULID string. */
export const isUlid = (value: string): boolean => ULID_PATTERN.test(value);

/**
 * A stable ULID for a stored post that has no envelope of its own (a team-room post made
 * through teamchat): its time, and 80 bits of a hash of the room and seq.
 */
export function derivedUlid(time: number, digest: Buffer): string {
  const digits = Array.from(digest.subarray(0, 16), (b) => b & 31);
  return (
    encodeTime(Math.max(0, Math.min(TIME_MAX, Math.floor(time)))) +
    digits.map((d) => ALPHABET[d] ?? '0').join('')
  );
}
