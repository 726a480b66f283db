// Output compaction: a tool's result text cut to a UTF-8 byte budget, ending in a marker the
// model can see, so one huge result cannot flood its context.

export interface Compacted {
  text: string;
  /** Null when the text fit the budget unchanged. */
  compacted: { originalBytes: number; keptBytes: number } | null;
}

/** The marker appended to cut output; tests and docs match its prefix. */
export const TRUNCATION_MARKER = '[… truncated by cairn-tools:';

const marker = (kept: number, total: number): string =>
  `\n${TRUNCATION_MARKER} showing ${kept} of ${total} bytes]`;

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes that does not split a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Fits `text` into `budget` bytes including the marker. */
export function compact(text: string, budget: number): Compacted {
  const total = Buffer.byteLength(text, 'utf8');
  if (total <= budget) return { text, compacted: null };
  const room = Math.max(0, budget - Buffer.byteLength(marker(total, total), 'utf8'));
  const kept = utf8Prefix(text, room);
  const keptBytes = Buffer.byteLength(kept, 'utf8');
  return {
    text: kept + marker(keptBytes, total),
    compacted: { originalBytes: total, keptBytes },
  };
}
