// Splits a client's byte stream into lines: CRLF or bare LF (and a lone CR) end a line,
// lines over the limit are reported and dropped, and a stream that never ends a line cannot
// grow the buffer past the limit. Bytes in, strings out (invalid UTF-8 becomes U+FFFD).
import { CLIENT_TAGS_MAX_BYTES, LINE_MAX_BYTES } from './protocol.js';

export type LineEvent = { kind: 'line'; line: string } | { kind: 'too-long' };

/** Bytes a line may have before its CRLF: 510, plus the tag section when it starts with `@`. */
export function lineLimit(firstByte: number | undefined): number {
  const body = LINE_MAX_BYTES - 2;
  return firstByte === 0x40 ? body + CLIENT_TAGS_MAX_BYTES : body;
}

export interface LineReader {
  /** Feeds bytes; returns the complete lines (and over-long notices) in order. */
  push(chunk: Buffer): LineEvent[];
}

/** Creates a reader for one connection. */
export function createLineReader(): LineReader {
  let pending: Buffer = Buffer.alloc(0);
  /** Inside an over-long line: drop bytes until its end. */
  let discarding = false;

  function take(line: Buffer, out: LineEvent[]): void {
    if (discarding) {
      discarding = false;
      return;
    }
    if (line.length > lineLimit(line[0])) {
      out.push({ kind: 'too-long' });
      return;
    }
    const text = line.toString('utf8').replace(/\0/g, '');
    if (text.trim() !== '') out.push({ kind: 'line', line: text });
  }

  return {
    push(chunk) {
      const out: LineEvent[] = [];
      const data = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let start = 0;
      for (let i = 0; i < data.length; i++) {
        const b = data[i];
        if (b !== 0x0a && b !== 0x0d) continue;
        take(data.subarray(start, i), out);
        if (b === 0x0d && data[i + 1] === 0x0a) i++;
        start = i + 1;
      }
      pending = Buffer.from(data.subarray(start));
      if (pending.length > lineLimit(pending[0])) {
        if (!discarding) out.push({ kind: 'too-long' });
        discarding = true;
        pending = Buffer.alloc(0);
      }
      return out;
    },
  };
}
