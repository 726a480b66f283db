// The backplane message envelope `{ v: 1, type, id, from, to, ts, payload }`: its checks
// (type names, recipients, the 64 KiB payload cap) and the one-line text a room post keeps.
import { InvalidInputError, stripInvisibleDeep } from '../shared/index.js';
import { checkRecipient } from './names.js';

export const ENVELOPE_LIMITS = {
  payloadBytes: 64 * 1024,
  typeLength: 100,
  recipients: 50,
} as const;

/** Types every agent understands; any other dotted name is allowed too. */
export const BUILTIN_TYPES = [
  'task.create',
  'task.update',
  'task.complete',
  'agent.hello',
  'agent.bye',
  'text',
] as const;

const TYPE = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$/;

export type Payload = Record<string, unknown>;

export interface Envelope {
  v: 1;
  type: string;
  /** ULID. */
  id: string;
  /** The authenticated sender's nick (never taken from arguments). */
  from: string;
  to: string[];
  /** ISO 8601 UTC time the message was stored. */
  ts: string;
  payload: Payload;
}

/** What a sender supplies; the backplane adds v, id, from and ts. */
export interface EnvelopeInput {
  type: string;
  to?: readonly string[] | undefined;
  payload?: Payload | undefined;
}

/**
 * Checks a sender's envelope fields and returns them normalised (the payload's strings
 * stripped of invisible characters).
 * @throws InvalidInputError naming `type`, `to[i]` or `payload`.
 */
export function checkEnvelope(input: EnvelopeInput): {
  type: string;
  to: string[];
  payload: Payload;
  payloadJson: string;
} {
  const type = input.type;
  if (type.length > ENVELOPE_LIMITS.typeLength || !TYPE.test(type)) {
    throw new InvalidInputError(
      `${JSON.stringify(type.slice(0, 40))} is not a dotted type name like task.create (lowercase letters, digits, _ or -, segments joined by dots, at most ${ENVELOPE_LIMITS.typeLength} characters)`,
      'type',
    );
  }
  const to = [...(input.to ?? [])];
  if (to.length > ENVELOPE_LIMITS.recipients) {
    throw new InvalidInputError(`at most ${ENVELOPE_LIMITS.recipients} recipients`, 'to');
  }
  to.forEach(checkRecipient);
  const given = input.payload ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new InvalidInputError('must be a JSON object', 'payload');
  }
  // Every string in the payload (keys too) is stored stripped of invisible characters.
  const payload = stripInvisibleDeep(given) as Payload;
  const payloadJson = JSON.stringify(payload);
  const bytes = Buffer.byteLength(payloadJson, 'utf8');
  if (bytes > ENVELOPE_LIMITS.payloadBytes) {
    throw new InvalidInputError(`is ${bytes} bytes of JSON; the cap is 65536 (64 KiB)`, 'payload');
  }
  if (type === 'text' && typeof payload['text'] !== 'string') {
    throw new InvalidInputError('a text message needs payload.text (a string)', 'payload.text');
  }
  return { type, to, payload, payloadJson };
}

const SUMMARY_MAX = 400;

/**
 * The human line a room post keeps for an envelope (what teamchat readers and IRC NOTICEs
 * show): the text of a `text` message, otherwise `type=<type>` and the start of the payload.
 */
export function summaryLine(type: string, payload: Payload, payloadJson: string): string {
  if (type === 'text' && typeof payload['text'] === 'string' && payload['text'].trim() !== '') {
    return payload['text'];
  }
  const body = payloadJson === '{}' ? '' : ` ${payloadJson}`;
  const line = `type=${type}${body}`;
  return line.length <= SUMMARY_MAX ? line : `${line.slice(0, SUMMARY_MAX - 1)}…`;
}
