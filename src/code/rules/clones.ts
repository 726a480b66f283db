// Token-window clone detection, shared by the duplicate-block rule (one file) and the project
// scan (many files): syntax-tree leaves without comments or layout, interned to numbers, k-gram
// hashes winnowed to a few fingerprints per file (Schleimer et al.), and every fingerprint seen
// before verified token by token and extended to the longest common run. Pure computation.
import type { SyntaxNode } from '../parser.js';

/** One file's tokens: interned ids and the 0-based row each starts on. */
export interface TokenStream {
  readonly ids: Int32Array;
  readonly rows: Int32Array;
}

/** Token ids shared by every file of one scan, so equal tokens get equal ids. */
export type Vocabulary = Map<string, number>;

/** The leaves of `root` (comments skipped) as a token stream, at most `maxTokens` of them. */
export function tokenStream(
  root: SyntaxNode,
  text: string,
  vocabulary: Vocabulary,
  maxTokens = Number.MAX_SAFE_INTEGER,
): TokenStream {
  const ids: number[] = [];
  const rows: number[] = [];
  const cursor = root.walk();
  try {
    for (let more = true; more && ids.length < maxTokens;) {
      const type = cursor.nodeType;
      const skip = type.includes('comment');
      if (!skip && cursor.gotoFirstChild()) continue;
      if (!skip && cursor.endIndex > cursor.startIndex) {
        const token = text.slice(cursor.startIndex, cursor.endIndex);
        let id = vocabulary.get(token);
        if (id === undefined) {
          id = vocabulary.size + 1;
          vocabulary.set(token, id);
        }
        ids.push(id);
        rows.push(cursor.startPosition.row);
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          more = false;
          break;
        }
      }
    }
  } finally {
    cursor.delete();
  }
  return { ids: Int32Array.from(ids), rows: Int32Array.from(rows) };
}

/** A run of tokens in one file, half-open [start, end). */
export interface TokenSpan {
  readonly file: number;
  readonly start: number;
  readonly end: number;
}

/** A repeated run: `copy` repeats `original` (an earlier file, or earlier in the same file). */
export interface Clone {
  readonly original: TokenSpan;
  readonly copy: TokenSpan;
}

export interface CloneOptions {
  /** Fewest tokens a clone has (the window is derived from it). */
  readonly minTokens: number;
  /** Fewest lines a clone spans, first token's row to last's, on both sides. */
  readonly minLines: number;
  /** Report clones inside one file (the rule) or only across files (the project scan). */
  readonly withinFile: boolean;
}

const BASE = 1_000_003;
const FILE_STRIDE = 2 ** 26; // tokens per file the packed locations allow

/** k-gram hashes of `ids` (length n − k + 1), polynomial, mod 2^32. */
function kgramHashes(ids: Int32Array, k: number): Int32Array {
  const n = ids.length - k + 1;
  if (n <= 0) return new Int32Array(0);
  let top = 1;
  for (let i = 1; i < k; i += 1) top = Math.imul(top, BASE);
  const out = new Int32Array(n);
  let h = 0;
  for (let i = 0; i < k; i += 1) h = (Math.imul(h, BASE) + (ids[i] ?? 0)) | 0;
  out[0] = h;
  for (let i = 1; i < n; i += 1) {
    const drop = Math.imul(ids[i - 1] ?? 0, top);
    h = (Math.imul(h - drop, BASE) + (ids[i + k - 1] ?? 0)) | 0;
    out[i] = h;
  }
  return out;
}

/** Winnowing: the rightmost minimal hash of every `w` consecutive ones, each position once. */
function winnow(hashes: Int32Array, w: number): number[] {
  const picked: number[] = [];
  const deque: number[] = []; // positions with increasing hashes
  let head = 0;
  for (let i = 0; i < hashes.length; i += 1) {
    const h = hashes[i] ?? 0;
    while (deque.length > head && (hashes[deque[deque.length - 1] ?? 0] ?? 0) >= h) deque.pop();
    deque.push(i);
    if ((deque[head] ?? 0) <= i - w) head += 1;
    if (i >= w - 1 || i === hashes.length - 1) {
      const min = deque[head] ?? 0;
      if (picked[picked.length - 1] !== min) picked.push(min);
    }
  }
  return picked;
}

function sameRun(a: Int32Array, i: number, b: Int32Array, j: number, k: number): boolean {
  for (let x = 0; x < k; x += 1) if (a[i + x] !== b[j + x]) return false;
  return true;
}

const spanRows = (s: TokenStream, start: number, end: number): number =>
  (s.rows[end - 1] ?? 0) - (s.rows[start] ?? 0) + 1;

/** Files added one by one; each `add` answers the new file's clones. */
export interface CloneIndex {
  /** The streams added so far, by file number. */
  readonly streams: readonly TokenStream[];
  add(stream: TokenStream): Clone[];
}

/**
 * An index that files are added to one by one; each `add` returns the clones of the new file
 * (with earlier files, and within itself when `withinFile`). Keeps every stream and one
 * location per fingerprint, so memory grows with the tokens added, not their square.
 */
export function createCloneIndex(options: CloneOptions): CloneIndex {
  const k = Math.max(4, Math.min(25, Math.floor(options.minTokens / 2)));
  const w = Math.max(1, options.minTokens - k + 1);
  const streams: TokenStream[] = [];
  const first = new Map<number, number>();

  /** Grows the match at (fa, pa) ~ (file, pos) both ways; null when too short or overlapping. */
  function grow(fa: number, pa: number, file: number, pos: number, from: number): Clone | null {
    const a = streams[fa];
    const b = streams[file];
    if (a === undefined || b === undefined) return null;
    if (!sameRun(a.ids, pa, b.ids, pos, k)) return null; // a hash collision
    let [sa, sb] = [pa, pos];
    while (sa > 0 && sb > from && a.ids[sa - 1] === b.ids[sb - 1]) [sa, sb] = [sa - 1, sb - 1];
    const limitA = fa === file ? sb : a.ids.length; // a copy never overlaps its original
    let len = 0;
    while (sa + len < limitA && sb + len < b.ids.length && a.ids[sa + len] === b.ids[sb + len]) {
      len += 1;
    }
    // Whole lines of the copy: drop a partial first and last line (a shared `;` or `return`).
    while (len > 0 && sb > 0 && b.rows[sb - 1] === b.rows[sb])
      [sa, sb, len] = [sa + 1, sb + 1, len - 1];
    while (len > 0 && b.rows[sb + len] === b.rows[sb + len - 1]) len -= 1;
    if (len < options.minTokens) return null;
    const lines = Math.min(spanRows(a, sa, sa + len), spanRows(b, sb, sb + len));
    if (lines < options.minLines) return null;
    return {
      original: { file: fa, start: sa, end: sa + len },
      copy: { file, start: sb, end: sb + len },
    };
  }

  return {
    streams,
    add(stream: TokenStream): Clone[] {
      const file = streams.length;
      streams.push(stream);
      const clones: Clone[] = [];
      let covered = 0;
      const hashes = kgramHashes(stream.ids, k);
      for (const pos of winnow(hashes, w)) {
        const h = hashes[pos] ?? 0;
        const seen = first.get(h);
        if (seen === undefined) first.set(h, file * FILE_STRIDE + pos);
        if (seen === undefined || pos < covered) continue;
        const fa = Math.floor(seen / FILE_STRIDE);
        if (fa === file && !options.withinFile) continue;
        const clone = grow(fa, seen % FILE_STRIDE, file, pos, covered);
        if (clone === null) continue;
        clones.push(clone);
        covered = clone.copy.end;
      }
      return clones;
    },
  };
}

/** The 1-based first and last line of a span. */
export function spanLines(stream: TokenStream, span: TokenSpan): { line: number; endLine: number } {
  return {
    line: (stream.rows[span.start] ?? 0) + 1,
    endLine: (stream.rows[span.end - 1] ?? 0) + 1,
  };
}
