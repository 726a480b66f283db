// The backplane tools' text outputs, exactly as the spec prints them. Pure formatting.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Channel, Credentials, Message } from '../backplane/index.js';

/** What a backplane tool returns: the spec's text, and structured content where it has some. */
export interface TextOutput {
  text: string;
  structured?: Record<string, unknown>;
}

/** The tool result: the text as its one content item, `structured` as structuredContent. */
export function textResult(out: TextOutput): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: out.text }] };
  if (out.structured !== undefined) result.structuredContent = out.structured;
  return result;
}

export function statusText(counts: { active: number; total: number }): string {
  return `status: ok\nagents: ${counts.active} active, ${counts.total} total`;
}

/** `#general (6 members) — main coordination channel`; no dash without a topic. */
export function channelLine(c: Channel): string {
  const topic = c.topic === '' ? '' : ` — ${c.topic}`;
  return `${c.name} (${c.members.length} members)${topic}`;
}

export const channelsText = (channels: readonly Channel[]): string =>
  channels.length === 0 ? 'no channels' : channels.map(channelLine).join('\n');

/** The spec's three lines, then the agent token (and the channels joined, when any). */
export function registeredText(c: Credentials & { channels: readonly string[] }): string {
  const lines = [`Agent registered: ${c.nick}`, `nick: ${c.nick}`, `password: ${c.password}`];
  lines.push(`token: ${c.token}`);
  if (c.channels.length > 0) lines.push(`channels: ${c.channels.join(', ')}`);
  return lines.join('\n');
}

export const sentText = (m: Message): string => `message sent to ${m.channel}`;

/** The most characters of a message's body a history line shows. */
export const HISTORY_BODY_MAX = 200;

const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]+/;
const CONTROLS = /\p{Cc}/gu;

/** What a message says: a `text` message's text, otherwise its payload's JSON ('' for `{}`). */
function messageBody(m: Message): string {
  const { type, payload } = m.envelope;
  const text = payload['text'];
  if (type === 'text' && typeof text === 'string') return text;
  const json = JSON.stringify(payload);
  return json === '{}' ? '' : json;
}

/**
 * A message body on one line and bounded: a run of whitespace holding a line break becomes one
 * space, other control characters become spaces, and past `max` characters (code points) it
 * is cut with `…` and the full length noted. Linear in the body's length (no backtracking).
 */
export function oneLineBody(body: string, max = HISTORY_BODY_MAX): string {
  const parts = body.split(LINE_BREAKS).map((part) => part.replace(CONTROLS, ' ').trim());
  const line = parts.filter((part) => part !== '').join(' ');
  if (line.length <= max) return line;
  let chars = 0;
  for (const _ of line) chars++;
  if (chars <= max) return line;
  const head = Array.from(line.slice(0, 2 * max))
    .slice(0, max)
    .join('');
  return `${head}… (${chars} chars; full text in structuredContent.messages)`;
}

/** `[#general] <nick> type=task.create id=01HX… — {"title":"x"}`: the spec's line, then the body. */
export function historyLine(m: Message): string {
  const prefix = `[${m.channel}] <${m.envelope.from}> type=${m.envelope.type} id=${m.envelope.id}`;
  const body = oneLineBody(messageBody(m));
  return body === '' ? prefix : `${prefix} — ${body}`;
}

export function historyText(channel: string, messages: readonly Message[]): string {
  return [`# history: ${channel} (last ${messages.length})`, ...messages.map(historyLine)].join(
    '\n',
  );
}
