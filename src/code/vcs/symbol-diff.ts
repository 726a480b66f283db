// Symbol-level diff of one file: the declarations chunkFile found on each side, matched by
// (container, name, kind), classified added / removed / changed / unchanged. Pure: no git.
import type { CodeChunk } from '../chunk/index.js';
import type { SymbolChange, SymbolCounts } from './types.js';

/** One declaration of a side: its chunk parts merged back into one. */
export interface Declaration {
  symbol: string;
  name: string;
  container: string | null;
  kind: CodeChunk['kind'];
  signature: string;
  startLine: number;
  endLine: number;
  /** The text compared: line endings unified, trailing spaces dropped. */
  body: string;
}

function normalise(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .join('\n');
}

function nameOf(symbol: string): string {
  return symbol.slice(symbol.lastIndexOf('.') + 1);
}

/**
 * The declarations of one chunked file keyed by `kind, container, name` (a second declaration
 * with the same key, such as a Rust type's second impl, gets `#2`). Windows are not declarations.
 */
export function declarationsOf(chunks: readonly CodeChunk[]): Map<string, Declaration> {
  const byKey = new Map<string, Declaration>();
  const seen = new Map<string, number>();
  let open: { key: string; decl: Declaration } | null = null;
  for (const chunk of chunks) {
    if (chunk.symbol === null || chunk.kind === 'window') continue;
    const base = `${chunk.kind}\0${chunk.parent ?? ''}\0${nameOf(chunk.symbol)}`;
    if (chunk.part > 1 && open !== null && (open.key === base || open.key.startsWith(`${base}#`))) {
      open.decl.body += `\n${normalise(chunk.text)}`;
      open.decl.endLine = Math.max(open.decl.endLine, chunk.endLine);
      continue;
    }
    const n: number = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const key: string = n === 1 ? base : `${base}#${n}`;
    const decl: Declaration = {
      symbol: chunk.symbol,
      name: nameOf(chunk.symbol),
      container: chunk.parent,
      kind: chunk.kind,
      signature: chunk.signature,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      body: normalise(chunk.text),
    };
    byKey.set(key, decl);
    open = { key, decl };
  }
  return byKey;
}

/** Where the file is on each side (the same path unless renamed; null when absent). */
export interface SidePaths {
  base: string | null;
  target: string | null;
}

function change(
  decl: Declaration,
  kind: SymbolChange['change'],
  paths: SidePaths,
  previous: Declaration | null,
): SymbolChange {
  const onTarget = kind !== 'removed';
  const path = (onTarget ? paths.target : paths.base) ?? '';
  return {
    path,
    previousPath: onTarget && paths.base !== null && paths.base !== path ? paths.base : null,
    symbol: decl.symbol,
    name: decl.name,
    container: decl.container,
    kind: decl.kind,
    change: kind,
    signatureChanged: previous !== null && previous.signature !== decl.signature,
    signature: decl.signature,
    previousSignature: previous === null ? null : previous.signature,
    startLine: decl.startLine,
    endLine: decl.endLine,
  };
}

/** The result of comparing one file's declarations. */
export interface FileSymbolDiff {
  changes: SymbolChange[];
  counts: SymbolCounts;
}

/**
 * Compares the declarations of the two sides. A symbol present on both sides is `changed`
 * when its normalised text differs (`signatureChanged` when its signature does too), else
 * unchanged (counted, not listed). Changes are in line order: target side, then removals.
 */
export function diffDeclarations(
  base: Map<string, Declaration>,
  target: Map<string, Declaration>,
  paths: SidePaths,
): FileSymbolDiff {
  const counts: SymbolCounts = { added: 0, removed: 0, changed: 0, unchanged: 0 };
  const changes: SymbolChange[] = [];
  for (const [key, decl] of target) {
    const before = base.get(key);
    if (before === undefined) {
      counts.added++;
      changes.push(change(decl, 'added', paths, null));
    } else if (before.body !== decl.body) {
      counts.changed++;
      changes.push(change(decl, 'changed', paths, before));
    } else {
      counts.unchanged++;
    }
  }
  for (const [key, decl] of base) {
    if (target.has(key)) continue;
    counts.removed++;
    changes.push(change(decl, 'removed', paths, null));
  }
  return { changes, counts };
}
