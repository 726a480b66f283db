// The filter syntax: keys and their aliases, values as alternatives, normalisation (paths,
// languages, the work tree), and refusals that name the field.
import { describe, expect, it } from 'vitest';

import { InvalidInputError } from '../../shared/index.js';
import { parseFilters } from './filters.js';

describe('parseFilters', () => {
  it('reads every key, its aliases and case, values kept as alternatives', () => {
    expect(
      parseFilters(
        [
          'path:./src/',
          'PATH: lib/ ',
          'lang:TS',
          'language:text',
          'branch:@',
          'branch:release/1.2',
          'kind:Method',
          'symbol:Geo::Shape.area',
          'ext:.md',
          'extension:*.py',
          'path:./',
        ],
        ['ts'],
      ),
    ).toEqual({
      extensions: ['ts', '.md', '*.py'],
      pathPrefixes: ['src/', 'lib/'],
      branches: ['', 'release/1.2'],
      languages: ['typescript', null],
      kinds: ['method'],
      symbols: ['Geo::Shape.area'],
    });
  });

  it('refuses what it does not know, naming filters or extensions', () => {
    const field = (f: string[], e: string[] = []): string | undefined => {
      try {
        parseFilters(f, e);
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidInputError);
        return (err as InvalidInputError).field;
      }
      return undefined;
    };
    expect(field(['repo:x'])).toBe('filters');
    expect(field(['lang:brainfuck'])).toBe('filters');
    expect(field(['kind:closure'])).toBe('filters');
    expect(field(['!lang:go'])).toBe('filters');
    expect(field([':value'])).toBe('filters');
    expect(field(['symbol:'])).toBe('filters');
    expect(field(['symbol:a\u0085b'])).toBe('filters');
    expect(field(['ext:t s'])).toBe('filters');
    expect(field([], ['../etc'])).toBe('extensions');
    expect(
      field(
        [],
        Array.from({ length: 65 }, () => 'ts'),
      ),
    ).toBe('extensions');
    expect(field(Array.from({ length: 33 }, () => 'kind:class'))).toBe('filters');
    expect(field(['kind:class'], ['ts'])).toBeUndefined();
  });
});
