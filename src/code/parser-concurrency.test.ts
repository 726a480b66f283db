// Grammars asked for at the same moment, in a process that has loaded none yet, all load:
// concurrent first loads used to make some of them fail (and the failure is cached).
import { describe, expect, it } from 'vitest';

import { CODE_LANGUAGES } from './languages.js';
import { parseSource } from './parser.js';

describe('parseSource under concurrent first use', () => {
  it('loads every grammar when all are asked for at once', async () => {
    const results = await Promise.allSettled(
      CODE_LANGUAGES.map(async (language) => {
        const tree = await parseSource(language, 'x\n');
        tree.delete();
        return language;
      }),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  });
});
