// Tests that the per-language node table names only node types the real grammars have.
import { describe, expect, it } from 'vitest';

import { CODE_LANGUAGES } from '../languages.js';
import { grammar } from '../parser.js';
import { NODE_KINDS, type NodeKinds } from './node-kinds.js';

type SetKey = {
  [K in keyof NodeKinds]-?: NodeKinds[K] extends ReadonlySet<string> | undefined ? K : never;
}[keyof NodeKinds];

describe('node kinds', () => {
  it('names only node types that exist in each real grammar', async () => {
    const unknown: string[] = [];
    for (const language of CODE_LANGUAGES) {
      const g = await grammar(language);
      const kinds = NODE_KINDS[language];
      for (const key of Object.keys(kinds) as SetKey[]) {
        for (const type of kinds[key] ?? []) {
          if (g.idForNodeType(type, true) === null) unknown.push(`${language}.${key}: ${type}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it('gives every language function kinds, branches and loops', () => {
    for (const language of CODE_LANGUAGES) {
      const kinds = NODE_KINDS[language];
      expect(kinds.functions.size, language).toBeGreaterThan(0);
      expect(kinds.ifs.size, language).toBeGreaterThan(0);
      expect(kinds.loops.size, language).toBeGreaterThan(0);
      expect(kinds.binaries.size, language).toBeGreaterThan(0);
    }
  });
});
