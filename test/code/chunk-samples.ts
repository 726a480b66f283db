// Test support for the per-language chunking tests: one sample's shape and the checks every
// sample gets (exact chunks and imports, one-line bounded signatures, parents, text start).
// Imported by tests only.
import { describe, expect, it } from 'vitest';

import { chunkFile } from '../../src/code/index.js';

/** A small source file of one language with the chunks (`kind symbol start-end`) it gives. */
export interface Sample {
  language: string;
  path: string;
  source: string;
  chunks: string[];
  imports: string[];
}

/** One test per sample: chunks, imports and the invariants of each chunk. */
export function describeSamples(samples: readonly Sample[]): void {
  describe('chunkFile by syntax', () => {
    for (const sample of samples) {
      it(`${sample.language}: declarations, lines and imports`, async () => {
        const file = await chunkFile({
          path: sample.path,
          language: sample.language,
          text: sample.source,
        });
        expect(file.mode).toBe('syntax');
        expect(file.hasSyntaxErrors).toBe(false);
        expect(
          file.chunks.map((c) => `${c.kind} ${c.symbol ?? '-'} ${c.startLine}-${c.endLine}`),
        ).toEqual(sample.chunks);
        expect(file.imports).toEqual(sample.imports);
        const lines = sample.source.split('\n');
        for (const chunk of file.chunks) {
          expect(chunk.signature).not.toMatch(/\n/);
          expect(chunk.signature.length).toBeLessThanOrEqual(200);
          if (chunk.kind === 'window') continue;
          expect(chunk.signature).not.toBe('');
          const dot = chunk.symbol?.lastIndexOf('.') ?? -1;
          expect(chunk.parent).toBe(dot > 0 ? (chunk.symbol ?? '').slice(0, dot) : null);
          // Containers elide member bodies ("{ … }"); up to the first elision the text is the source.
          const head = (chunk.text.split('\n')[0] ?? '').split(/\{ …|…/)[0] ?? '';
          expect(lines[chunk.startLine - 1]?.startsWith(head)).toBe(true);
        }
      });
    }
  });
}
