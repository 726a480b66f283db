// The inter-session envelope every delivered post wears, and the neutraliser that keeps post
// text from posing as another header (another author, or the user). Pure functions only.
import { stripInvisible } from '../shared/index.js';

/** Anything that reads as the envelope's opening: `[Inter-session message`, any spacing. */
const FORGED_HEADER = /\[[^\]\n]{0,64}?inter[\W_]{0,4}session[\W_]{0,4}message[^\]\n]{0,400}\]?/giu;

/** A bare authority claim outside a header. */
const AUTHORITY = /\bis[\W_]{0,3}user\s*[=:]/giu;

export const FORGED_MARK = '(forged envelope header removed)';

/**
 * Makes post text safe to deliver inside an envelope: compatibility-normalises it (so
 * full-width brackets match), strips invisible characters (`stripInvisible`, which could
 * split a header), replaces every header look-alike with a visible mark and defuses `isUser=`
 * claims. Ordinary text passes unchanged.
 */
export function neutralise(text: string): string {
  // Posts are stored stripped already; stripping again covers rows written before that.
  return stripInvisible(text.normalize('NFKC'))
    .replace(/\r\n?/g, '\n')
    .replace(FORGED_HEADER, FORGED_MARK)
    .replace(AUTHORITY, 'is-user (quoted) =');
}

/** An id as it may appear inside the header (defence in depth: ids are validated on entry). */
function headerSafe(value: string): string {
  return value.replace(/[[\]=·\s\p{Cc}\p{Cf}]/gu, '_');
}

export interface EnvelopeFields {
  seq: number;
  authorAgentId: string;
  kind: string;
  text: string;
}

/**
 * The envelope header alone: `[Inter-session message · from=… · kind=… · seq=… · isUser=false]`.
 * `isUser` is always false, even for `kind=user` (a human's dashboard post): a room post is
 * never a turn with user authority, whoever wrote it; `kind` only says where it came from.
 */
export function envelopeHeader(post: Omit<EnvelopeFields, 'text'>): string {
  return `[Inter-session message · from=${headerSafe(post.authorAgentId)} · kind=${headerSafe(post.kind)} · seq=${post.seq} · isUser=false]`;
}

/** Header, newline, neutralised text: what a subscriber reads. */
export function wrapPost(post: EnvelopeFields): string {
  return `${envelopeHeader(post)}\n${neutralise(post.text)}`;
}
