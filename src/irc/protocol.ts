// IRC wire format: parsing one client line (IRCv3 tags, prefix, command, params), building
// server lines, and cutting text to the 512-byte line budget on UTF-8 boundaries. Pure
// functions only: no sockets, no domain calls.

/** One parsed client line. */
export interface IrcMessage {
  tags: Record<string, string>;
  prefix: string | undefined;
  command: string;
  params: string[];
}

/** RFC 1459: a line is at most 512 bytes including the CRLF. */
export const LINE_MAX_BYTES = 512;
/** IRCv3 message-tags: the tag section a client may add in front of the 512 bytes. */
export const CLIENT_TAGS_MAX_BYTES = 4096;
const PARAMS_MAX = 15;

function unescapeTag(value: string): string {
  const map: Record<string, string> = { ':': ';', s: ' ', '\\': '\\', r: '\r', n: '\n' };
  return value.replace(/\\(.?)/g, (_m, c: string) => map[c] ?? c);
}

export function escapeTag(value: string): string {
  return value.replace(/[;\s\\]/g, (c) =>
    c === ';' ? '\\:' : c === ' ' ? '\\s' : c === '\\' ? '\\\\' : c === '\r' ? '\\r' : '\\n',
  );
}

function parseTags(raw: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of raw.split(';')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq === -1 ? part : part.slice(0, eq);
    tags[key] = eq === -1 ? '' : unescapeTag(part.slice(eq + 1));
  }
  return tags;
}

/** Splits off the first space-delimited word (runs of spaces are one separator). */
function word(rest: string): [string, string] {
  const trimmed = rest.replace(/^ +/, '');
  const sp = trimmed.indexOf(' ');
  return sp === -1 ? [trimmed, ''] : [trimmed.slice(0, sp), trimmed.slice(sp + 1)];
}

/**
 * Parses one line (without its line ending). Returns undefined for an empty line or one with
 * no command; never throws.
 */
export function parseLine(line: string): IrcMessage | undefined {
  let rest = line;
  let tags: Record<string, string> = {};
  let prefix: string | undefined;
  if (rest.startsWith('@')) {
    const [raw, after] = word(rest.slice(1));
    tags = parseTags(raw);
    rest = after;
  }
  rest = rest.replace(/^ +/, '');
  if (rest.startsWith(':')) {
    const [raw, after] = word(rest.slice(1));
    prefix = raw;
    rest = after;
  }
  const [command, after] = word(rest);
  if (!/^([A-Za-z]+|\d{3})$/.test(command)) return undefined;
  const params: string[] = [];
  rest = after;
  while (rest !== '' && params.length < PARAMS_MAX) {
    rest = rest.replace(/^ +/, '');
    if (rest === '') break;
    if (rest.startsWith(':') || params.length === PARAMS_MAX - 1) {
      params.push(rest.startsWith(':') ? rest.slice(1) : rest);
      break;
    }
    const [p, next] = word(rest);
    params.push(p);
    rest = next;
  }
  return { tags, prefix, command: command.toUpperCase(), params };
}

/**
 * Builds one server line (without CRLF). The last param is sent as a trailing `:param` when
 * it is empty, has a space or starts with `:`; `trailing: true` forces that form.
 */
export function formatLine(
  prefix: string | undefined,
  command: string,
  params: readonly string[],
  opts: { tags?: Record<string, string>; trailing?: boolean } = {},
): string {
  const parts: string[] = [];
  const tagText = Object.entries(opts.tags ?? {})
    .map(([k, v]) => (v === '' ? k : `${k}=${escapeTag(v)}`))
    .join(';');
  if (tagText !== '') parts.push(`@${tagText}`);
  if (prefix !== undefined) parts.push(`:${prefix}`);
  parts.push(command);
  params.forEach((p, i) => {
    const last = i === params.length - 1;
    const clean = p.replace(/[\r\n\0]/g, ' ');
    const needsColon = clean === '' || clean.includes(' ') || clean.startsWith(':');
    parts.push(last && (needsColon || opts.trailing === true) ? `:${clean}` : clean);
  });
  return parts.join(' ');
}

/** The `nick!user@host` prefix of a user; the host is always `cairn` (addresses stay private). */
export const userMask = (nick: string, user?: string): string => `${nick}!${user ?? nick}@cairn`;

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (never splits a character). */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Cuts `text` into pieces of at most `maxBytes` UTF-8 bytes each (at least one piece). */
export function chunkUtf8(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (Buffer.byteLength(rest, 'utf8') > maxBytes) {
    const head = truncateUtf8(rest, maxBytes);
    if (head === '') break;
    pieces.push(head);
    rest = rest.slice(head.length);
  }
  pieces.push(rest);
  return pieces;
}

/** Decodes one SASL PLAIN response (`authzid \0 authcid \0 password`), or undefined. */
export function decodeSaslPlain(
  base64: string,
): { authzid: string; authcid: string; password: string } | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  const parts = Buffer.from(base64, 'base64').toString('utf8').split('\0');
  if (parts.length !== 3) return undefined;
  const [authzid = '', authcid = '', password = ''] = parts;
  if (authcid === '' && authzid === '') return undefined;
  return { authzid, authcid: authcid === '' ? authzid : authcid, password };
}
