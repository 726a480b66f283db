// Line bookkeeping and the text operations chunking needs: slicing rows, leading context,
// signatures, member-body elision and windows. Everything is linear in the text it touches;
// nothing here rescans the whole file per chunk.

/** Row offsets of a text, computed once. Rows are 0-based here; chunks report 1-based lines. */
export class LineIndex {
  readonly starts: number[] = [0];
  readonly longest: number;

  constructor(readonly text: string) {
    let longest = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
      longest = Math.max(longest, at - (this.starts[this.starts.length - 1] ?? 0));
      this.starts.push(at + 1);
    }
    this.longest = Math.max(longest, text.length - (this.starts[this.starts.length - 1] ?? 0));
  }

  get count(): number {
    return this.starts.length;
  }

  /** Offset where `row` starts. */
  start(row: number): number {
    return this.starts[Math.min(Math.max(row, 0), this.starts.length - 1)] ?? 0;
  }

  /** Offset where `row` ends (before its newline). */
  end(row: number): number {
    const next = this.starts[row + 1];
    return next === undefined ? this.text.length : next - 1;
  }

  /** The text of rows `from`..`to`, inclusive. */
  slice(from: number, to: number): string {
    return this.text.slice(this.start(from), this.end(to));
  }

  /** Whether `row` is blank. */
  blank(row: number): boolean {
    return this.text.slice(this.start(row), this.end(row)).trim() === '';
  }
}

/** The first row of leading context (doc comments, decorators) above `row`, at most `max` back. */
export function leadingRow(lines: LineIndex, row: number, pattern: RegExp, max = 20): number {
  let first = row;
  while (first > 0 && row - first < max && pattern.test(lines.slice(first - 1, first - 1))) first--;
  return first;
}

/** Cuts lines longer than `max` characters (with a marker), so minified text stays bounded. */
export function cutLongLines(text: string, max: number): string {
  if (text.length <= max) return text;
  const out: string[] = [];
  for (const line of text.split('\n'))
    out.push(line.length > max ? `${line.slice(0, max)}…` : line);
  return out.join('\n');
}

/**
 * The declaration head from `start` to `bodyStart` (or to the end of its first line), on one
 * line, without a trailing `{`, `:` or `=`, at most `max` characters.
 */
export function signatureOf(
  text: string,
  start: number,
  bodyStart: number | null,
  max: number,
): string {
  let end = bodyStart ?? text.indexOf('\n', start);
  if (end < 0) end = text.length;
  const head = text
    .slice(start, Math.min(end, start + max * 4))
    .replace(/\s+/g, ' ')
    .replace(/(?:\s|\{|:|=>|=)+$/, '')
    .trim();
  return head.length > max ? `${head.slice(0, max - 1)}…` : head;
}

/** A member body replaced by a placeholder that keeps the language's look. */
function placeholder(text: string, start: number): string {
  const first = text[start];
  return first === '{' ? '{ … }' : first === '=' ? '= …' : '…';
}

/**
 * The text from `from` to `to` with each `[start, end)` range (sorted, non-overlapping) replaced by
 * a placeholder: a class with its methods' bodies elided.
 */
export function elide(
  text: string,
  from: number,
  to: number,
  bodies: readonly (readonly [number, number])[],
): string {
  const parts: string[] = [];
  let at = from;
  for (const [start, end] of bodies) {
    if (start < at || end > to) continue;
    parts.push(text.slice(at, start), placeholder(text, start));
    at = end;
  }
  parts.push(text.slice(at, to));
  return parts.join('');
}

/** Keeps at most `max` lines of `text`, saying how many were dropped. */
export function firstLines(text: string, max: number): string {
  let at = -1;
  for (let i = 0; i < max; i++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return text;
  }
  let dropped = 0;
  for (let i = at; i >= 0; i = text.indexOf('\n', i + 1)) dropped++;
  return `${text.slice(0, at)}\n… (${dropped} more lines)`;
}

/** Row windows of `size` rows overlapping by `overlap` that cover `from`..`to` (inclusive). */
export function windows(
  from: number,
  to: number,
  size: number,
  overlap: number,
): [number, number][] {
  const out: [number, number][] = [];
  const step = Math.max(1, size - Math.min(overlap, size - 1));
  for (let start = from; start <= to; start += step) {
    const end = Math.min(to, start + size - 1);
    out.push([start, end]);
    if (end >= to) break;
  }
  return out;
}
