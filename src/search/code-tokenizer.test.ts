import { describe, expect, it } from 'vitest';

import { codeTokenizer, createCodeTokenizer, identifierParts } from './code-tokenizer.js';
import { CODE_SYNONYMS } from './code-vocabulary.js';

const terms = (text: string): string[] => codeTokenizer.tokenize(text).map((t) => t.term);
const spans = (text: string): string[] =>
  codeTokenizer.tokenize(text).map((t) => text.slice(t.start, t.end));
const parts = (s: string): string[] => identifierParts(s).map(([a, b]) => s.slice(a, b));

describe('identifierParts', () => {
  it('splits camelCase and PascalCase at a lower-to-upper change', () => {
    expect(parts('camelCase')).toEqual(['camel', 'Case']);
    expect(parts('PascalCaseName')).toEqual(['Pascal', 'Case', 'Name']);
  });

  it('ends an acronym before the capital that starts the next word', () => {
    expect(parts('HTTPServer')).toEqual(['HTTP', 'Server']);
    expect(parts('getHTTPResponseCode')).toEqual(['get', 'HTTP', 'Response', 'Code']);
    expect(parts('IOError')).toEqual(['IO', 'Error']);
    expect(parts('URL')).toEqual(['URL']);
  });

  it('splits snake_case and drops leading, trailing and doubled underscores', () => {
    expect(parts('snake_case')).toEqual(['snake', 'case']);
    expect(parts('__init__')).toEqual(['init']);
    expect(parts('_private__name_')).toEqual(['private', 'name']);
    expect(parts('SCREAMING_SNAKE')).toEqual(['SCREAMING', 'SNAKE']);
    expect(parts('___')).toEqual([]);
  });

  it('splits at letter–digit boundaries', () => {
    expect(parts('int2str')).toEqual(['int', '2', 'str']);
    expect(parts('Terminal256Formatter')).toEqual(['Terminal', '256', 'Formatter']);
    expect(parts('utf8')).toEqual(['utf', '8']);
  });

  it('treats non-ASCII letters by their case', () => {
    expect(parts('größeÄnderung')).toEqual(['größe', 'Änderung']);
  });
});

describe('codeTokenizer.tokenize', () => {
  it('keeps the whole identifier, stemmed as one word, before its stemmed parts', () => {
    expect(terms('camelCase')).toEqual(['camelcas', 'camel', 'case']);
    expect(terms('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
    expect(terms('sorted_strings')).toEqual(['sortedstr', 'sort', 'string']);
  });

  it('indexes one whole term for an identifier whatever its convention', () => {
    const whole = (text: string): string | undefined => codeTokenizer.tokenize(text)[0]?.term;
    expect(new Set(['file_name', 'fileName', 'FileName', 'filename'].map(whole))).toEqual(
      new Set(['filenam']),
    );
    expect(terms('forceAscii force_ascii')).toEqual([
      'forceascii',
      'forc',
      'ascii',
      'forceascii',
      'forc',
      'ascii',
    ]);
  });

  it('stems a one-part word like prose and folds case', () => {
    expect(terms('Sorted PARSING __init__')).toEqual(['sort', 'pars', 'init']);
  });

  it('keeps dotted names, paths, kebab-case and :: / -> chains whole, then each segment', () => {
    expect(terms('os.path.isfile')).toEqual(['os.path.isfile', 'os', 'path', 'isfil']);
    expect(terms('src/foo/barBaz.ts')).toEqual([
      'src/foo/barbaz.ts',
      'src',
      'foo',
      'barbaz',
      'bar',
      'baz',
      'ts',
    ]);
    expect(terms('kebab-case')).toEqual(['kebab-case', 'kebab', 'case']);
    expect(terms('std::vec')).toEqual(['std::vec', 'std', 'vec']);
    expect(terms('$this->value')).toEqual(['this->value', 'thi', 'valu']);
  });

  it('does not join a hyphen next to a digit (subtraction, ranges)', () => {
    expect(terms('n-1')).toEqual(['n', '1']);
  });

  it('drops a lone digit split off an identifier but keeps longer numbers and the whole', () => {
    expect(terms('md5')).toEqual(['md5', 'md']);
    expect(terms('int2str')).toEqual(['int2str', 'int', 'str']);
    expect(terms('sha256')).toEqual(['sha256', 'sha', '256']);
    expect(terms('x = 1')).toEqual(['x', '1']);
  });

  it('gives offsets into the text; parts share the span of their identifier', () => {
    expect(spans('  getHttpUrl(a)')).toEqual(['getHttpUrl', 'get', 'Http', 'Url', 'a']);
    const [whole, first] = codeTokenizer.tokenize('x.fooBar');
    expect(whole).toMatchObject({ start: 0, end: 8, word: 'x.foobar', term: 'x.foobar' });
    expect(first).toMatchObject({ start: 0, end: 1, word: 'x', term: 'x' });
  });

  it('records the folded word before stemming', () => {
    expect(codeTokenizer.tokenize('Parsing')[0]).toMatchObject({ word: 'parsing', term: 'pars' });
  });

  it('folds diacritics', () => {
    expect(terms('Ünïcode')).toEqual(['unicod']);
  });

  it('keeps a very long segment as one unsplit term', () => {
    const hash = 'a1'.repeat(40);
    expect(terms(hash)).toEqual([hash]);
  });

  it('finds nothing in punctuation and whitespace', () => {
    expect(terms('  (){}[];,. -> :: // ')).toEqual([]);
    expect(terms('')).toEqual([]);
  });
});

describe('codeTokenizer.queryTerms', () => {
  it('splits identifiers as documents do and drops question words and language names', () => {
    expect(codeTokenizer.queryTerms('how to use getHttpUrl in python')).toEqual([
      'gethttpurl',
      'get',
      'http',
      'url',
    ]);
  });

  it('keeps stopwords when nothing else remains', () => {
    expect(codeTokenizer.queryTerms('how to')).toEqual(['how', 'to']);
  });

  it('deduplicates terms', () => {
    expect(codeTokenizer.queryTerms('sort sorted sorting')).toEqual(['sort']);
  });

  it('adds no synonyms by default', () => {
    expect(codeTokenizer.queryTerms('dict to str')).toEqual(['dict', 'str']);
  });

  it('adds the synonyms of a term after the query’s own terms when given a vocabulary', () => {
    const withSynonyms = createCodeTokenizer({ synonyms: CODE_SYNONYMS });
    expect(withSynonyms.queryTerms('dict to str')).toEqual(['dict', 'str', 'dictionari', 'string']);
  });

  it('takes its vocabulary from the options', () => {
    const plain = createCodeTokenizer({ stopwords: new Set(), synonyms: [] });
    expect(plain.queryTerms('python dict')).toEqual(['python', 'dict']);
    expect(plain.name).toBe('code');
  });

  it('searches at most 32 terms', () => {
    const many = Array.from(
      { length: 50 },
      (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`,
    );
    expect(codeTokenizer.queryTerms(many.join(' ')).length).toBe(32);
  });
});
