// The code corpus ranks with the measured fields of src/search: a term found only in a
// docstring or comment finds its chunk and, being prose, outranks the same term in code; a
// symbol match outranks a body match; the path counts too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { addCollection, addFile } from '../../test/code-rows.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-code-ranking-'));
  store = await openSqliteStore(join(dir, 'c.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (hits: readonly { chunkId: number }[]): number[] => hits.map((h) => h.chunkId);

describe('code corpus ranking (CODE_FIELD_WEIGHTS)', () => {
  it('finds a term only a docstring holds, and ranks prose above the same term in code', async () => {
    const made = await store.write(async (tx) => {
      const c = await addCollection(tx, 'py');
      const file = { language: 'python' };
      const doc = await addFile(
        tx,
        c,
        'lib/birds.py',
        [
          {
            symbol: 'count_birds',
            signature: 'def count_birds(seen)',
            text: 'def count_birds(seen):\n    """Tally the plovers seen today."""\n    return len(seen)',
          },
        ],
        file,
      );
      // One mention in code (0.5) against one in a docstring (prose 1 + text 0.5).
      const code = await addFile(
        tx,
        c,
        'lib/shore.py',
        [
          {
            symbol: 'walk',
            signature: 'def walk(bird)',
            text: 'def walk(bird):\n    plover = find(bird)\n    return count(bird) + len(seen)',
          },
        ],
        file,
      );
      const other = await addFile(tx, c, 'lib/other.py', [{ symbol: 'noop', text: 'pass' }], file);
      return { c, doc: doc.chunks, code: code.chunks, other: other.chunks };
    });
    const scope = { collectionIds: [made.c] };
    // "tally" is nowhere but the docstring.
    expect(ids(await store.codeIndex.fullText('tally', scope, 5))).toEqual(made.doc);
    const hits = await store.codeIndex.fullText('plover', scope, 5);
    expect(ids(hits)).toEqual([...made.doc, ...made.code]);
    expect(hits[0]?.bm25).toBeGreaterThan(hits[1]?.bm25 ?? Infinity);
  });

  it('ranks a symbol match above body matches, and a comment above a body mention', async () => {
    const made = await store.write(async (tx) => {
      const c = await addCollection(tx, 'ts');
      const named = await addFile(tx, c, 'src/a.ts', [
        {
          symbol: 'flushQueue',
          signature: 'flushQueue(): void',
          text: 'flushQueue(): void { drain(); }',
        },
      ]);
      const body = await addFile(tx, c, 'src/b.ts', [
        {
          symbol: 'shutdown',
          signature: 'shutdown(): void',
          text: 'shutdown(): void { flushQueue(); flushQueue(); close(); }',
        },
      ]);
      const comment = await addFile(tx, c, 'src/c.ts', [
        {
          symbol: 'restart',
          signature: 'restart(): void',
          text: 'restart(): void {\n  // flush queue before the restart\n  stop(); start();\n}',
        },
      ]);
      return { c, named: named.chunks, body: body.chunks, comment: comment.chunks };
    });
    const hits = await store.codeIndex.fullText('flushQueue', { collectionIds: [made.c] }, 5);
    expect(ids(hits)[0]).toBe(made.named[0]);
    const words = await store.codeIndex.fullText('flush queue', { collectionIds: [made.c] }, 5);
    expect(ids(words)).toEqual([...made.named, ...made.comment, ...made.body]);
  });

  it('ranks a path match: a term only the path holds finds the chunk', async () => {
    const made = await store.write(async (tx) => {
      const c = await addCollection(tx, 'p');
      const f = await addFile(tx, c, 'src/sandpiper/main.ts', [{ symbol: 'main', text: 'run()' }]);
      return { c, chunks: f.chunks };
    });
    const hits = await store.codeIndex.fullText('sandpiper', { collectionIds: [made.c] }, 5);
    expect(ids(hits)).toEqual(made.chunks);
  });
});
