// The one sanitiser of stored text: invisible and bidirectional control characters are stripped
// before any domain writes text (tasks, comments, memory, room posts, backplane messages and
// topics), so what a reader sees is what is stored. Pure functions; imports nothing.

/**
 * Always stripped: soft hyphen, Arabic letter mark, Mongolian vowel separator, zero-width space,
 * LRM/RLM, bidi embeddings and overrides (U+202A–202E), word joiner and invisible operators
 * (U+2060–2064), bidi isolates (U+2066–2069), deprecated format controls (U+206A–206F), BOM.
 */
const ALWAYS = '\\u00AD\\u061C\\u180E\\u200B\\u200E\\u200F\\u202A-\\u202E\\u2060-\\u206F\\uFEFF';

/** Tag characters (U+E0000–E007F) hide ASCII text; only a subdivision flag's tags are kept. */
const TAGS = '\\u{E0000}-\\u{E007F}';

/** A flag emoji tag sequence (🏴 + 2–6 tag letters or digits + cancel tag), e.g. Scotland's. */
const FLAG = '\\u{1F3F4}[\\u{E0030}-\\u{E0039}\\u{E0061}-\\u{E007A}]{2,6}\\u{E007F}';

const HIDDEN = new RegExp(`${FLAG}|[${ALWAYS}${TAGS}]`, 'gu');
const JOINER = /[\u200C\u200D]/gu;
const ANY = new RegExp(`[${ALWAYS}${TAGS}\\u200C\\u200D]`, 'u');

/** What a ZWJ/ZWNJ may follow: emoji, an emoji modifier, VS16, a mark, a joining-script letter. */
const JOINS_AFTER =
  /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F\p{M}]|(?![\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}])\p{L}/u;
/** What a kept joiner may not precede: a Latin, Cyrillic or Greek letter, a digit, a joiner. */
const BREAKS_BEFORE = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}0-9\u200C\u200D]/u;

/** True when the joiner at `index` of `text` sits where a script or emoji sequence needs it. */
function joinerKept(text: string, index: number): boolean {
  const before = [...text.slice(Math.max(0, index - 2), index)].at(-1);
  const after = text.codePointAt(index + 1);
  if (before === undefined || !JOINS_AFTER.test(before)) return false;
  return after === undefined || !BREAKS_BEFORE.test(String.fromCodePoint(after));
}

/**
 * Strips invisible and bidirectional control characters (see ALWAYS, TAGS) and every ZWJ/ZWNJ
 * (U+200D/U+200C) except where legitimate text needs one: after an emoji, modifier, VS16, mark
 * or a letter of a joining script (Arabic, Persian, Indic, …), and not before a Latin, Cyrillic
 * or Greek letter, a digit or another joiner. A subdivision flag's tag sequence is kept.
 * Idempotent, never lengthens the text; ordinary text comes back unchanged (the same string).
 */
export function stripInvisible(text: string): string {
  if (!ANY.test(text)) return text;
  const visible = text.replace(HIDDEN, (m) => (m.length > 2 ? m : ''));
  return visible.replace(JOINER, (m, index: number, whole: string) =>
    joinerKept(whole, index) ? m : '',
  );
}

/**
 * A character `stripInvisible` would remove (the first hidden one, else the first stray
 * joiner), as `U+XXXX`, or null when there is none: for scanners that flag hidden text.
 */
export function firstInvisible(text: string): string | null {
  if (!ANY.test(text)) return null;
  const hidden = [...text.matchAll(HIDDEN)].find((m) => m[0].length <= 2);
  const joiner = [...text.replace(HIDDEN, '').matchAll(JOINER)].find(
    (m) => !joinerKept(m.input, m.index),
  );
  const found = hidden?.[0] ?? joiner?.[0];
  if (found === undefined) return null;
  return `U+${(found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `stripInvisible` applied to every string (keys too) inside a JSON value (a message payload);
 * other values are returned as they are.
 */
export function stripInvisibleDeep(value: unknown): unknown {
  if (typeof value === 'string') return stripInvisible(value);
  if (Array.isArray(value)) return value.map(stripInvisibleDeep);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [stripInvisible(k), stripInvisibleDeep(v)]),
  );
}
