// The extraction backlog's guards, with an in-test extractor whose answer the test releases:
// a document changed while the model read it keeps its new deterministic facts and waits
// again; stop() returns while an answer is still out and nothing is written after it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { extractFacts } from '../../src/graph/extract/index.js';
import {
  createVaultExtractWorker,
  type DocumentFactExtractor,
  type KgAnswer,
} from '../../src/vault/index.js';
import { tempDir, type TempDir } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
let root: TempDir;
beforeEach(async () => {
  s = await vaultSetup();
  root = tempDir('cairn-extract-backlog-');
  writeNotes(root.path, { 'team.md': '# Team\n\nThe data team owns the search index.\n' });
  await s.sync('default', root.path);
});
afterEach(async () => {
  await s.close();
  root.cleanup();
});

/** An extractor whose n-th answer ("Kai owns the search index") waits for `release(n)`. */
function heldExtractor() {
  const gates: (() => void)[] = [];
  const opened = new Map<number, Promise<void>>();
  const gate = (n: number): Promise<void> => {
    let p = opened.get(n);
    if (p === undefined) {
      p = new Promise<void>((resolve) => (gates[n] = resolve));
      opened.set(n, p);
    }
    return p;
  };
  const asked: string[] = [];
  const extractor: DocumentFactExtractor = {
    name: 'held:test',
    async extract(text) {
      asked.push(text);
      await gate(asked.length - 1);
      return { facts: extractFacts('Kai owns the search index.'), dropped: 0 };
    },
  };
  const release = (n: number): void => {
    void gate(n);
    gates[n]?.();
  };
  return { extractor, asked, release };
}

const facts = async (): Promise<string[]> => {
  const r = await callVault<KgAnswer>(s.client, 'kg_query', { entity: 'search index' });
  return r.data.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`);
};

describe('extraction backlog guards', () => {
  it('does not overwrite a document that changed while the model read it', async () => {
    const held = heldExtractor();
    const worker = createVaultExtractWorker({ store: s.core.store, extractor: held.extractor });
    const drained = worker.drain();
    await expect.poll(() => held.asked.length, { timeout: 20_000 }).toBe(1);
    writeNotes(root.path, { 'team.md': '# Team\n\nThe infra team owns the search index.\n' });
    await s.sync('default', root.path);
    held.release(0);
    // The answer about the old content was dropped; the new content is being asked about.
    await expect.poll(() => held.asked.length, { timeout: 20_000 }).toBe(2);
    expect(held.asked[1]).toContain('infra team');
    expect(await facts()).toEqual(['infra team owns search index']);
    expect(await worker.totals('default')).toMatchObject({ pending: 1, done: 0 });
    held.release(1);
    await drained;
    expect(await facts()).toEqual(['Kai owns search index']);
    expect(await worker.totals('default')).toMatchObject({ pending: 0, done: 1 });
    await worker.stop();
  });

  it('stop() returns while an answer is out, and nothing is written after it', async () => {
    const held = heldExtractor();
    const worker = createVaultExtractWorker({ store: s.core.store, extractor: held.extractor });
    worker.wake();
    await expect.poll(() => held.asked.length, { timeout: 20_000 }).toBe(1);
    await worker.stop();
    held.release(0);
    expect(await facts()).toEqual(['data team owns search index']);
    expect(await worker.totals('default')).toMatchObject({ pending: 1, done: 0, failed: 0 });
  });
});
