// The minimal code tokenizer: identifier parts and wholes, compounds, offsets, query terms.
import { describe, expect, it } from 'vitest';

import { codeTokenizer } from './code-tokenizer.js';

const terms = (text: string): string[] => codeTokenizer.tokenize(text).map((t) => t.term);

describe('codeTokenizer', () => {
  it('splits camelCase, PascalCase and acronyms, keeping the whole identifier', () => {
    expect(terms('getUserName')).toEqual(['getusername', 'get', 'user', 'name']);
    expect(terms('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
    expect(terms('parseJSON')).toEqual(['parsejson', 'pars', 'json']);
    expect(terms('base64Encode')).toEqual(['base64encode', 'base64', 'encod']);
  });

  it('splits snake_case and SCREAMING_CASE, and stems the parts like prose', () => {
    expect(terms('read_all_files')).toEqual(['readallfiles', 'read', 'all', 'file']);
    expect(terms('MAX_RETRIES')).toEqual(['maxretries', 'max', 'retri']);
    expect(terms('__init__')).toEqual(['init']);
  });

  it('keeps dotted names, paths and kebab-case whole and splits their segments', () => {
    expect(terms('os.path.join')).toEqual(['os.path.join', 'os', 'path', 'join']);
    expect(terms('src/store/code-index.ts')).toEqual([
      'src/store/code-index.ts',
      'src',
      'store',
      'code',
      'index',
      'ts',
    ]);
    expect(terms('std::vector')).toEqual(['std::vector', 'std', 'vector']);
    expect(terms('a - b. Next')).toEqual(['a', 'b', 'next']);
  });

  it('gives offsets into the text, several terms sharing a span', () => {
    const text = '  fooBar(x)';
    for (const t of codeTokenizer.tokenize(text)) {
      expect(t.word).toBe(text.slice(t.start, t.end).toLowerCase().replaceAll('_', ''));
    }
    const [whole, foo, bar] = codeTokenizer.tokenize(text);
    expect([whole?.start, whole?.end, foo?.start, foo?.end, bar?.start, bar?.end]).toEqual([
      2, 8, 2, 5, 5, 8,
    ]);
  });

  it('folds case and diacritics and leaves other scripts whole', () => {
    expect(terms('Café_naïve')).toEqual(['cafenaive', 'cafe', 'naiv']);
    expect(terms('変数名')).toEqual(['変数名']);
  });

  it('searches the same terms a document indexes, stopwords dropped unless nothing else', () => {
    expect(codeTokenizer.queryTerms('how to get the userName')).toEqual([
      'get',
      'username',
      'user',
      'name',
    ]);
    expect(codeTokenizer.queryTerms('is it')).toEqual(['is', 'it']);
    expect(codeTokenizer.queryTerms('')).toEqual([]);
  });
});
