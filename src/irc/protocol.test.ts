// Unit tests of the IRC wire format: parsing, building, UTF-8 budgets and SASL PLAIN.
import { describe, expect, it } from 'vitest';

import { chunkUtf8, decodeSaslPlain, formatLine, parseLine, truncateUtf8 } from './protocol.js';

describe('parseLine', () => {
  it('parses tags, prefix, command, middle and trailing params', () => {
    expect(parseLine('@time=2030;a=b\\sc :nick!u@h privmsg  #chan  :hello :world')).toEqual({
      tags: { time: '2030', a: 'b c' },
      prefix: 'nick!u@h',
      command: 'PRIVMSG',
      params: ['#chan', 'hello :world'],
    });
    expect(parseLine('NICK bob')?.params).toEqual(['bob']);
    expect(parseLine('CAP REQ :')?.params).toEqual(['REQ', '']);
    expect(parseLine('001 x :hi')?.command).toBe('001');
  });

  it('returns undefined for lines without a command and never throws', () => {
    for (const junk of ['', '   ', ':', ':prefix', '@tags', '@a :p', '12', '#!?', '\u0001\u0002']) {
      expect(parseLine(junk)).toBeUndefined();
    }
  });

  it('keeps at most 15 params, the last holding the rest', () => {
    const msg = parseLine(`CMD ${Array.from({ length: 20 }, (_, i) => `p${i}`).join(' ')}`);
    expect(msg?.params).toHaveLength(15);
    expect(msg?.params[14]).toBe('p14 p15 p16 p17 p18 p19');
  });
});

describe('formatLine', () => {
  it('adds the colon only where needed, or when asked', () => {
    expect(formatLine('srv', '001', ['bob', 'Welcome here'])).toBe(':srv 001 bob :Welcome here');
    expect(formatLine('srv', '324', ['bob', '#c', '+nt'])).toBe(':srv 324 bob #c +nt');
    expect(formatLine(undefined, 'PRIVMSG', ['#c', 'x'], { trailing: true })).toBe('PRIVMSG #c :x');
    expect(formatLine('s', 'NOTICE', ['b', ''])).toBe(':s NOTICE b :');
  });

  it('escapes tags and strips line breaks from params', () => {
    expect(formatLine('s', 'PRIVMSG', ['#c', 'a\r\nb'], { tags: { time: 'x y;z' } })).toBe(
      '@time=x\\sy\\:z :s PRIVMSG #c :a  b',
    );
  });
});

describe('UTF-8 budgets', () => {
  it('truncates and chunks on character boundaries', () => {
    expect(truncateUtf8('ééé', 5)).toBe('éé');
    expect(truncateUtf8('abc', 10)).toBe('abc');
    expect(chunkUtf8('aé😀b', 4)).toEqual(['aé', '😀', 'b']);
    for (const piece of chunkUtf8('😀'.repeat(100), 7)) {
      expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(7);
    }
  });
});

describe('decodeSaslPlain', () => {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  it('decodes authzid, authcid and password', () => {
    expect(decodeSaslPlain(b64('\0bob\0pw'))).toEqual({
      authzid: '',
      authcid: 'bob',
      password: 'pw',
    });
    expect(decodeSaslPlain(b64('bob\0\0pw'))).toEqual({
      authzid: 'bob',
      authcid: 'bob',
      password: 'pw',
    });
  });
  it('rejects malformed responses', () => {
    expect(decodeSaslPlain('not base64!')).toBeUndefined();
    expect(decodeSaslPlain(b64('bob:pw'))).toBeUndefined();
    expect(decodeSaslPlain(b64('\0\0pw'))).toBeUndefined();
  });
});
