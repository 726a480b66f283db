// One zod schema per teamchat-tool input, next to the rooms they serve. Identity fields may be
// empty (an unbound session that omits them gets the spec's tool-error, not `invalid args`).
import { z } from 'zod';

/** Bounds that keep hostile input from bloating the store or a reply. */
export const ROOM_LIMITS = {
  id: 200,
  text: 32_768,
  pageMax: 500,
  pageDefault: 100,
  waitMs: 30_000,
} as const;

/** Characters an id may not hold: they could close or forge an envelope header. */
const FORBIDDEN_ID = /[[\]=·\p{Cc}\p{Cf}\u2028\u2029]/u;

/** A check whose failure ends the field's checks: one problem, one issue (`abort`). */
const last = (error: string) => ({ error, abort: true });

/** An agent or team id as a tool argument ('' means "not given"). */
export const optionalId = (what: string) =>
  z
    .string()
    .max(ROOM_LIMITS.id, last(`${what} is longer than ${ROOM_LIMITS.id} characters`))
    .refine((v) => !FORBIDDEN_ID.test(v), `${what} may not contain [ ] = · or control characters`)
    .optional();

/** True when `value` is acceptable as a bound or argument id. */
export function isValidId(value: string): boolean {
  return value.length > 0 && value.length <= ROOM_LIMITS.id && !FORBIDDEN_ID.test(value);
}

const text = (what: string) =>
  z
    .string()
    .max(ROOM_LIMITS.text, last(`${what} is larger than 32 KiB`))
    .refine(
      (v) => Buffer.byteLength(v, 'utf8') <= ROOM_LIMITS.text,
      `${what} is larger than 32 KiB`,
    );

const identity = {
  authorAgentId: optionalId('authorAgentId'),
  teamId: optionalId('teamId'),
  roomId: z
    .string()
    .max(ROOM_LIMITS.id + 5, 'roomId is too long')
    .optional(),
};

export const teamChatPostInput = z.object({ text: text('text'), ...identity });

export const teamChatSubscribeInput = z.object({
  sinceSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.number().int().min(1).max(ROOM_LIMITS.pageMax).default(ROOM_LIMITS.pageDefault),
  /** Long-poll: wait up to this long for a new post when none is pending. */
  waitMs: z.number().int().min(0).max(ROOM_LIMITS.waitMs).optional(),
  ...identity,
});

/**
 * Both fields are required by the spec and advertised so (`required: true` lands in tools/list's
 * `required`), yet parse when missing: the handler answers that with the spec's tool-error.
 */
export const teamDelegateInput = z.object({
  assignee: z
    .string()
    .max(ROOM_LIMITS.id, 'assignee is longer than 200 characters')
    .optional()
    .meta({ required: true }),
  task: text('task').optional().meta({ required: true }),
});

/** REST `GET /api/rooms/:room/posts` and `/stream` query. */
export const roomPageQuery = z.object({
  sinceSeq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(ROOM_LIMITS.pageMax).default(ROOM_LIMITS.pageDefault),
});

/** REST `POST /api/rooms/:room/posts` body: a human's post (the author is always `user`). */
export const roomPostBody = z.object({ text: text('text') });
