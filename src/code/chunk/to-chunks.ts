// Turns the walker's declarations and top-level references into chunks: text with leading
// context, signatures, elided container bodies, long declarations split into windows, and line
// windows over code no declaration covers. Works on rows and offsets; never reparses.
import {
  cutLongLines,
  elide,
  firstLines,
  leadingRow,
  type LineIndex,
  signatureOf,
  windows,
} from './text.js';
import type { ChunkOptions, CodeChunk } from './types.js';
import type { RawDecl, TopRef } from './walk.js';

/** The resolved bounds (CHUNK_DEFAULTS merged with the caller's options). */
export type Bounds = Required<ChunkOptions>;

/** Declaration chunks, and the row ranges the top-level ones cover (for the gap windows). */
export interface DeclChunks {
  chunks: CodeChunk[];
  covered: [number, number][];
}

function declChunk(lines: LineIndex, d: RawDecl, leading: RegExp, b: Bounds): CodeChunk[] {
  const first = leadingRow(lines, d.startRow, leading);
  const dot = d.symbol.lastIndexOf('.');
  const calls = [...d.calls];
  const references = [...d.refs]
    .filter((r) => !d.calls.has(r) && r !== d.name)
    .slice(0, b.maxReferences);
  const base: Omit<CodeChunk, 'text'> = {
    kind: d.kind,
    symbol: d.symbol,
    parent: dot > 0 ? d.symbol.slice(0, dot) : null,
    signature: signatureOf(lines.text, d.signatureStart, d.signatureEnd, b.maxSignatureChars),
    startLine: first + 1,
    endLine: d.endRow + 1,
    calls,
    references,
    part: 1,
    parts: 1,
  };
  const bodies = d.children.flatMap((c) =>
    c.bodyStart === null || c.bodyEnd === null ? [] : [[c.bodyStart, c.bodyEnd] as const],
  );
  if (d.container && bodies.length > 0) {
    const text = elide(lines.text, lines.start(first), lines.end(d.endRow), bodies);
    return [{ ...base, text: firstLines(cutLongLines(text, b.maxLineChars), b.maxChunkLines) }];
  }
  if (d.endRow - first + 1 <= b.maxChunkLines) {
    return [{ ...base, text: cutLongLines(lines.slice(first, d.endRow), b.maxLineChars) }];
  }
  return splitDecl(lines, base, b);
}

/** A declaration longer than maxChunkLines as overlapping windows; references on part 1 only. */
function splitDecl(lines: LineIndex, base: Omit<CodeChunk, 'text'>, b: Bounds): CodeChunk[] {
  const parts = windows(
    base.startLine - 1,
    base.endLine - 1,
    b.splitWindowLines,
    b.splitOverlapLines,
  );
  return parts.map(([start, end], i) => ({
    ...base,
    startLine: start + 1,
    endLine: end + 1,
    text: cutLongLines(lines.slice(start, end), b.maxLineChars),
    calls: i === 0 ? base.calls : [],
    references: i === 0 ? base.references : [],
    part: i + 1,
    parts: parts.length,
  }));
}

/** Chunks for every declaration the walker found, in the walker's (document) order. */
export function declChunks(
  lines: LineIndex,
  decls: readonly RawDecl[],
  leading: RegExp,
  b: Bounds,
): DeclChunks {
  const chunks: CodeChunk[] = [];
  const covered: [number, number][] = [];
  for (const d of decls) {
    if (chunks.length > b.maxChunks) break;
    const made = declChunk(lines, d, leading, b);
    chunks.push(...made);
    if (d.topLevel && made[0] !== undefined) covered.push([made[0].startLine - 1, d.endRow]);
  }
  return { chunks, covered };
}

/** Row spans no covered range touches, with blank rows trimmed off both ends. */
function gaps(lines: LineIndex, covered: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let row = 0;
  const push = (from: number, to: number): void => {
    let s = from;
    let e = to;
    while (s <= e && lines.blank(s)) s++;
    while (e >= s && lines.blank(e)) e--;
    if (s <= e) out.push([s, e]);
  };
  for (const [start, end] of [...covered].sort((x, y) => x[0] - y[0])) {
    if (start > row) push(row, start - 1);
    row = Math.max(row, end + 1);
  }
  if (row < lines.count) push(row, lines.count - 1);
  return out;
}

/** Index of the first top-level reference at or after `row` (they arrive in row order). */
function firstRefAt(top: readonly TopRef[], row: number): number {
  let lo = 0;
  let hi = top.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((top[mid]?.row ?? Infinity) < row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function windowRefs(
  top: readonly TopRef[],
  from: number,
  to: number,
  b: Bounds,
): Pick<CodeChunk, 'calls' | 'references'> {
  const calls = new Set<string>();
  const refs = new Set<string>();
  for (let i = firstRefAt(top, from); i < top.length; i++) {
    const ref = top[i];
    if (ref === undefined || ref.row > to) break;
    if (ref.call && calls.size < b.maxCalls) calls.add(ref.name);
    else if (!ref.call && refs.size < b.maxReferences * 2) refs.add(ref.name);
  }
  return {
    calls: [...calls],
    references: [...refs].filter((r) => !calls.has(r)).slice(0, b.maxReferences),
  };
}

/**
 * Line windows over the rows `covered` leaves out: the whole file for a fallback, top-level code
 * between declarations otherwise (kept only when it holds `minContent` non-space characters).
 */
export function windowChunks(
  lines: LineIndex,
  covered: readonly [number, number][],
  top: readonly TopRef[],
  b: Bounds,
  minContent: number,
): CodeChunk[] {
  const chunks: CodeChunk[] = [];
  for (const [from, to] of gaps(lines, covered)) {
    if (minContent > 1 && lines.slice(from, to).replace(/\s+/g, '').length < minContent) continue;
    const parts = windows(from, to, b.windowLines, b.windowOverlapLines);
    for (const [i, [start, end]] of parts.entries()) {
      if (chunks.length > b.maxChunks) return chunks;
      chunks.push({
        kind: 'window',
        symbol: null,
        parent: null,
        signature: '',
        startLine: start + 1,
        endLine: end + 1,
        text: cutLongLines(lines.slice(start, end), b.maxLineChars),
        ...windowRefs(top, start, end, b),
        part: i + 1,
        parts: parts.length,
      });
    }
  }
  return chunks;
}
