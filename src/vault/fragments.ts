// Splits a markdown body into search fragments: a heading with the paragraphs right under it,
// a list (consecutive items and their continuation lines), a fenced code block, a paragraph
// run not under a heading, and one whole-document fragment. Lines inside a code fence are
// code, never headings. Each fragment knows its heading path and its line span in the file.
import type { FragmentKind, VaultFragmentInput } from '../store/index.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const CONTINUATION = /^(?: {2,}|\t)\S/;

/** A heading's text without markdown emphasis markers around it. */
export function headingText(raw: string): string {
  return raw.replace(/^[*_`]+|[*_`]+$/g, '').trim();
}

/** The ATX heading of a line (level and text), or undefined. */
export function headingOf(line: string): { level: number; text: string } | undefined {
  const m = HEADING.exec(line);
  if (m === null) return undefined;
  return { level: m[1]?.length ?? 1, text: headingText(m[2] ?? '') };
}

interface Open {
  kind: FragmentKind;
  start: number;
  lines: string[];
}

/**
 * The fragments of `body`, whose first line is line `firstLine` of the file (1-based), ordinals
 * from 0; the whole-document fragment comes last. An empty body yields only the whole fragment
 * (when the text is not blank) or nothing.
 */
export function splitFragments(body: string, firstLine = 1): VaultFragmentInput[] {
  const lines = body.split(/\r?\n/);
  const out: VaultFragmentInput[] = [];
  const path: { level: number; text: string }[] = [];
  let open: Open | undefined;
  let fence: string | undefined;

  const close = (): void => {
    if (open === undefined) return;
    while (open.lines.length > 0 && open.lines.at(-1)?.trim() === '') open.lines.pop();
    const text = open.lines.join('\n');
    if (text.trim() !== '')
      out.push({
        ordinal: out.length,
        kind: open.kind,
        headingPath: path.map((h) => h.text).join(' > '),
        startLine: firstLine + open.start,
        endLine: firstLine + open.start + open.lines.length - 1,
        text,
      });
    open = undefined;
  };
  const start = (kind: FragmentKind, i: number, line: string): void => {
    close();
    open = { kind, start: i, lines: [line] };
  };

  lines.forEach((line, i) => {
    if (fence !== undefined) {
      open?.lines.push(line);
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        fence = undefined;
        close();
      }
      return;
    }
    const f = FENCE.exec(line);
    if (f !== null) {
      start('code', i, line);
      fence = f[1]?.[0]?.repeat(f[1].length) ?? '```';
      return;
    }
    const h = headingOf(line);
    if (h !== undefined) {
      close();
      while (path.length > 0 && (path.at(-1)?.level ?? 0) >= h.level) path.pop();
      path.push(h);
      open = { kind: 'heading', start: i, lines: [line] };
      return;
    }
    const blank = line.trim() === '';
    if (LIST_ITEM.test(line)) {
      if (open?.kind !== 'list') start('list', i, line);
      else open.lines.push(line);
      return;
    }
    if (open?.kind === 'list') {
      if (blank || CONTINUATION.test(line)) open.lines.push(line);
      else start('paragraph', i, line);
      return;
    }
    if (open === undefined) {
      if (!blank) start('paragraph', i, line);
      return;
    }
    // Under a heading or in a paragraph run (code closes at its fence): the line joins it.
    open.lines.push(line);
  });
  close();

  const whole = body.trim();
  if (whole !== '') {
    const lead = body.slice(0, body.indexOf(whole)).split(/\r?\n/).length - 1;
    out.push({
      ordinal: out.length,
      kind: 'whole',
      headingPath: '',
      startLine: firstLine + lead,
      endLine: firstLine + lead + whole.split(/\r?\n/).length - 1,
      text: whole,
    });
  }
  return out;
}
