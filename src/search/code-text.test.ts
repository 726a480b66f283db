import { describe, expect, it } from 'vitest';

import {
  codeEmbeddingText,
  codeProse,
  codeProseBlocks,
  codeVectorQuery,
  identifierWords,
  MAX_EMBED_CHARS,
} from './code-text.js';

const PY = `def read_config(path):
    """Read the configuration file.

    :param path: where it lives
    """
    # open it
    with open(path) as f:  # text mode
        return f.read()  # all of it
`;

const TS = `/**
 * Parses a header line.
 * Returns null when malformed.
 */
export function parseHeader(line: string): Header | null {
  // split on the first colon
  const url = 'http://example.com'; // not a comment start above
  return null;
}
`;

describe('codeProseBlocks', () => {
  it('finds Python docstrings and # comments in order', () => {
    expect(codeProseBlocks(PY, 'python')).toEqual([
      'Read the configuration file.\n\n:param path: where it lives',
      'open it',
      'text mode',
      'all of it',
    ]);
  });

  it('finds block and line comments in C-like code, not a // inside a URL', () => {
    expect(codeProseBlocks(TS, 'typescript')).toEqual([
      'Parses a header line.\nReturns null when malformed.',
      'split on the first colon',
      'not a comment start above',
    ]);
  });

  it('does not read # as a comment in C-like languages, nor // in Python', () => {
    expect(codeProse('#include <stdio.h>\nint x; // count', 'c')).toBe('count');
    expect(codeProse('x = a // b  # floor', 'python')).toBe('floor');
  });

  it('reads both comment styles when the language is unknown', () => {
    expect(codeProse('a # one\nb // two', null)).toBe('one\ntwo');
  });

  it('skips Rust attributes and shebang-like markers', () => {
    expect(codeProse('#[derive(Debug)]\nstruct A; // a thing', null)).toBe('a thing');
  });

  it('finds nothing in code without prose', () => {
    expect(codeProseBlocks('return a + b', 'python')).toEqual([]);
  });
});

describe('identifierWords', () => {
  it('splits qualified, camel and snake names into lower-case words', () => {
    expect(identifierWords('Cache.getHTTPResponse')).toBe('cache get http response');
    expect(identifierWords('_format_json')).toBe('format json');
    expect(identifierWords('')).toBe('');
  });
});

describe('codeEmbeddingText', () => {
  it('is the name in words, the first docstring paragraph and the comment lines', () => {
    const text = codeEmbeddingText(
      { symbol: 'read_config', signature: 'def read_config(path)', text: PY },
      'python',
    );
    expect(text).toBe('read config. Read the configuration file. open it text mode all of it');
  });

  it('uses the first line of later comment blocks only', () => {
    const text = codeEmbeddingText(
      { symbol: 'parseHeader', signature: 'function parseHeader(line)', text: TS },
      'typescript',
    );
    expect(text).toBe(
      'parse header. Parses a header line. Returns null when malformed. split on the first colon not a comment start above',
    );
  });

  it('adds signature words and code when there is no prose', () => {
    const text = codeEmbeddingText(
      { symbol: 'add', signature: 'def add(a, b)', text: 'def add(a, b):\n    return a + b' },
      'python',
    );
    expect(text).toBe('add\ndef add a b\ndef add(a, b):\n    return a + b');
  });

  it('keeps a short docstring without code', () => {
    const text = codeEmbeddingText(
      {
        symbol: 'mag',
        signature: 'def mag(z)',
        text: 'def mag(z):\n    """Magnitude."""\n    return 1',
      },
      'python',
    );
    expect(text).toBe('mag. Magnitude.');
  });

  it('embeds a line window (no symbol, no prose) as its code', () => {
    expect(codeEmbeddingText({ symbol: null, signature: '', text: 'x = 1' }, 'python')).toBe(
      'x = 1',
    );
  });

  it('is bounded', () => {
    const long = `def f():\n    """${'word '.repeat(1000)}"""`;
    const text = codeEmbeddingText({ symbol: 'f', signature: 'def f()', text: long }, 'python');
    expect(text.length).toBe(MAX_EMBED_CHARS);
  });
});

describe('codeVectorQuery', () => {
  it('drops language names, whatever their case or punctuation', () => {
    expect(codeVectorQuery('how to sort a dict in Python?')).toBe('how to sort a dict in');
    expect(codeVectorQuery('python3 read file')).toBe('read file');
  });

  it('keeps the query when nothing else remains', () => {
    expect(codeVectorQuery('python')).toBe('python');
  });
});
