// Unit tests of line splitting: endings, limits, and streams that never end a line.
import { describe, expect, it } from 'vitest';

import { createLineReader } from './line-reader.js';

const lines = (chunks: (string | Buffer)[]): unknown[] => {
  const reader = createLineReader();
  return chunks.flatMap((c) => reader.push(Buffer.isBuffer(c) ? c : Buffer.from(c)));
};

describe('createLineReader', () => {
  it('accepts CRLF, LF and CR endings across chunk borders and skips blank lines', () => {
    expect(lines(['NICK a\r', '\nUSER b\nPING c\rPONG', ' d\r\n\r\n\n'])).toEqual([
      { kind: 'line', line: 'NICK a' },
      { kind: 'line', line: 'USER b' },
      { kind: 'line', line: 'PING c' },
      { kind: 'line', line: 'PONG d' },
    ]);
  });

  it('reports an over-long line once and goes on with the next', () => {
    expect(lines([`${'x'.repeat(511)}\r\nPING ok\r\n`])).toEqual([
      { kind: 'too-long' },
      { kind: 'line', line: 'PING ok' },
    ]);
    expect(lines(['y'.repeat(300), 'y'.repeat(300), 'y'.repeat(300), '\nPING ok\n'])).toEqual([
      { kind: 'too-long' },
      { kind: 'line', line: 'PING ok' },
    ]);
  });

  it('allows a tag section in front of the 510 bytes', () => {
    const line = `@${'t'.repeat(2000)} PRIVMSG #c :${'x'.repeat(400)}`;
    expect(lines([`${line}\n`])).toEqual([{ kind: 'line', line }]);
  });

  it('replaces invalid UTF-8 and drops NULs', () => {
    expect(lines([Buffer.from([0x50, 0x00, 0xff, 0x0a])])).toEqual([
      { kind: 'line', line: 'P\uFFFD' },
    ]);
  });
});
