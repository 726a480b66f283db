// One zod schema per backplane input (MCP tools, REST bodies and queries). Required fields of
// the spec parse when missing, so that a missing one is the spec's tool-error (`nick is
// required`), while a wrong type is the tool-error `invalid args: <field>: …`; `required`
// advertises them as required in tools/list all the same.
import { z } from 'zod';

import { HISTORY_LIMITS } from './backplane.js';
import { ENVELOPE_LIMITS } from './envelope.js';
import { AGENT_TYPES, CHANNEL_MAX } from './names.js';

const str = (field: string, max: number) =>
  z.string().max(max, `${field} is longer than ${max} characters`);
const channelArg = str('channel', CHANNEL_MAX + 100);
/** A field the spec requires, left to the domain to refuse (with its text) when missing. */
const required = <T extends z.ZodType>(schema: T) => schema.optional().meta({ required: true });
/** An integer `field` in `min..max`; every refusal names the field. */
const intIn = (field: string, min: number, max: number) =>
  z
    .number(`${field} must be a number`)
    .int(`${field} must be an integer`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`);

export const getStatusInput = z.object({});
export const listChannelsInput = z.object({});

export const registerAgentInput = z.object({
  nick: required(str('nick', 200)),
  type: z.enum(AGENT_TYPES).optional(),
  channels: z.array(channelArg).max(50, 'at most 50 channels').optional(),
});

export const sendMessageInput = z.object({
  channel: required(channelArg),
  type: required(str('type', 200)),
  payload: z.record(z.string(), z.unknown()).optional(),
  /** Recipients: nicks, `@all`, `@workers`, `@orchestrators`, `@observers`, `@prefix-*`. */
  to: z
    .array(str('to entry', 100))
    .max(ENVELOPE_LIMITS.recipients, `at most ${ENVELOPE_LIMITS.recipients} recipients`)
    .optional(),
});

export const getHistoryInput = z.object({
  channel: required(channelArg),
  /** The newest `limit` messages (default 20; Cairn caps it at 500). */
  limit: intIn('limit', 1, HISTORY_LIMITS.max).default(HISTORY_LIMITS.default),
});

/** REST `POST /v1/channels`. */
export const createChannelInput = z.object({
  name: channelArg,
  topic: z.string().max(1000).optional(),
  /** A temporary channel's lifetime in seconds (archived afterwards). */
  ttlSeconds: z
    .number()
    .int()
    .min(1)
    .max(366 * 86_400)
    .optional(),
});

/** REST `PUT /v1/channels/{ch}/topic`. */
export const setTopicInput = z.object({ topic: z.string().max(1000) });

/** REST `GET /v1/channels/{ch}/messages`: the newest `limit`, or a page after `afterSeq`. */
export const messagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_LIMITS.max).optional(),
  afterSeq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
