// Turns a context tool's output into the tool result: the readable text (or JSON), the whole
// answer as structuredContent (times as ISO 8601), and `_meta` when the tool set one; plus the
// small text helpers the families share (aligned tables, rounding). Pure formatting.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { isoTimes } from '../../shared/index.js';
import type { ContextOutput } from './family.js';

/** The tool result of one context tool call (a forwarded call's: the remote's, untouched). */
export function contextResult(out: ContextOutput): CallToolResult {
  if (out.forwarded !== undefined) return out.forwarded;
  const data = isoTimes(out.data);
  const text = out.text ?? JSON.stringify(data);
  const result: CallToolResult = {
    content: [{ type: 'text', text }],
    structuredContent: data,
  };
  if (out.meta !== undefined) result._meta = isoTimes(out.meta);
  return result;
}

/** A number for reading: integers as is, others to one decimal. */
export const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Rows as left-aligned columns separated by two spaces, each line indented by `indent`. */
export function table(rows: readonly (readonly string[])[], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
  );
}

/** `a 1, b 2` from a count map, largest first; `none` when empty. */
export function countsText(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return 'none';
  return entries
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}
