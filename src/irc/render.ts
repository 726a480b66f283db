// How a channel message looks on IRC. A plain human line (a `text` envelope with only a text)
// is a PRIVMSG of that text (NOTICE when it came from a NOTICE); any other envelope is a
// PRIVMSG carrying the envelope as JSON plus a short human NOTICE. Every line fits 512 bytes.
import type { Message } from '../backplane/index.js';
import { chunkUtf8, LINE_MAX_BYTES, truncateUtf8, userMask } from './protocol.js';

export interface RenderedLine {
  command: 'PRIVMSG' | 'NOTICE';
  text: string;
}

/** Lines of one multi-line text shown before the rest is elided. */
export const TEXT_LINES_MAX = 20;

/** Bytes left for the trailing text of `:<prefix> <COMMAND> <channel> :<text>\r\n`. */
export function textBudget(prefix: string, command: string, channel: string): number {
  return LINE_MAX_BYTES - 2 - Buffer.byteLength(`:${prefix} ${command} ${channel} :`, 'utf8');
}

/** True for a human line: type `text`, no recipients, a payload of `text` (and `notice`). */
export function isPlainText(m: Message): boolean {
  const { type, to, payload } = m.envelope;
  if (type !== 'text' || to.length > 0 || typeof payload['text'] !== 'string') return false;
  return Object.keys(payload).every(
    (k) => k === 'text' || (k === 'notice' && typeof payload['notice'] === 'boolean'),
  );
}

function plainLines(text: string, budget: number): string[] {
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  const shown = lines.slice(0, TEXT_LINES_MAX).flatMap((l) => chunkUtf8(l, budget));
  if (lines.length > TEXT_LINES_MAX) {
    shown.push(`… (${lines.length - TEXT_LINES_MAX} more lines; see get_history)`);
  }
  return shown;
}

/** The envelope as one JSON line; a payload too big for the line is replaced by its size. */
export function envelopeJson(m: Message, budget: number): string {
  const full = JSON.stringify(m.envelope);
  if (Buffer.byteLength(full, 'utf8') <= budget) return full;
  const { payload, ...head } = m.envelope;
  const payloadBytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  const cut = JSON.stringify({ ...head, truncated: true, payloadBytes });
  return truncateUtf8(cut, budget);
}

/** The short human line of an envelope: `type → recipients: text-or-payload`. */
export function humanLine(m: Message, budget: number): string {
  const { type, to, payload } = m.envelope;
  const text = typeof payload['text'] === 'string' ? payload['text'] : JSON.stringify(payload);
  const head = `${type}${to.length > 0 ? ` → ${to.join(' ')}` : ''}`;
  const line = text === '{}' ? head : `${head}: ${text.replace(/\s+/g, ' ')}`;
  return Buffer.byteLength(line, 'utf8') <= budget ? line : `${truncateUtf8(line, budget - 3)}…`;
}

/** The IRC lines one message becomes in `channel`, sent from the envelope's `from`. */
export function renderMessage(m: Message): RenderedLine[] {
  const prefix = userMask(m.envelope.from);
  if (isPlainText(m)) {
    const command = m.envelope.payload['notice'] === true ? 'NOTICE' : 'PRIVMSG';
    const budget = textBudget(prefix, command, m.channel);
    const text = m.envelope.payload['text'] as string;
    return plainLines(text, budget).map((t) => ({ command, text: t }));
  }
  return [
    { command: 'PRIVMSG', text: envelopeJson(m, textBudget(prefix, 'PRIVMSG', m.channel)) },
    { command: 'NOTICE', text: humanLine(m, textBudget(prefix, 'NOTICE', m.channel)) },
  ];
}
