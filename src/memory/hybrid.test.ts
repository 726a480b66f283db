// Hybrid search over a real SQLite file with a stub embedder: the store's raw BM25 and
// by-rowid cosine lookups, and z-score fusion scoring every candidate on both channels.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStore, type Store } from '../store/index.js';
import { createEmbedWorker } from './embed-worker.js';
import { createMemory } from './memory.js';
import type { MemoryEmbedder, MemoryScrubber } from './model.js';
import { visibleTo } from './scope.js';

const passThrough: MemoryScrubber = {
  scrub: (text) => Promise.resolve({ text, onlySentinels: false, findings: [] }),
};

/** Two topics as two axes: texts about fruit point one way, texts about boats the other. */
const AXES = [/apple|pear|plum|fruit|orchard/i, /boat|sail|harbour|keel/i] as const;
const stub: MemoryEmbedder = {
  model: 'stub:2',
  warm: () => undefined,
  isReady: () => true,
  embed: (texts) =>
    Promise.resolve(
      texts.map((t) => {
        const v = Float32Array.from(AXES, (re) => (re.test(t) ? 1 : 0.05));
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      }),
    ),
};

describe('hybrid search', () => {
  let dir: string;
  let store: Store;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-hybrid-'));
    store = await openSqliteStore(join(dir, 'cairn.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function seed(): Promise<Record<string, string>> {
    const memory = createMemory(store, { scrubber: passThrough });
    const ids: Record<string, string> = {};
    for (const [title, content] of [
      ['ledger', 'The ledger mentions a boat twice: boat fees, boat tax.'],
      ['orchard', 'Plum and pear trees in the orchard.'],
      ['harbour', 'The sail needs mending before the harbour race.'],
    ] as const) {
      const saved = await memory.save({ title, content, scope: {} });
      if (saved.saved === 'fact') ids[title] = saved.fact.id;
    }
    await createEmbedWorker({ store, embedder: stub }).drain();
    return ids;
  }

  it('reports raw BM25 beside the bounded score, and cosines by rowid', async () => {
    await seed();
    const [hit] = await store.memoryIndex.fullText('boat', visibleTo({}), 5);
    expect(hit?.bm25).toBeGreaterThan(0);
    expect(hit?.score).toBeCloseTo((hit?.bm25 ?? 0) / (1 + (hit?.bm25 ?? 0)));
    const [query] = await stub.embed(['fruit']);
    if (query === undefined) throw new Error('no vector');
    const rows = await store.all<{ rowid: number; title: string }>(
      'SELECT rowid, title FROM memory_items ORDER BY rowid',
    );
    const got = await store.memoryIndex.distances(stub.model, query, [
      ...rows.map((r) => r.rowid),
      999,
    ]);
    const byTitle = new Map(
      got.map((g) => [rows.find((r) => r.rowid === g.rowid)?.title, g.distance]),
    );
    expect(byTitle.size).toBe(3);
    expect(byTitle.get('orchard')).toBeCloseTo(0, 5);
    expect(byTitle.get('harbour')).toBeGreaterThan(0.5);
    expect(await store.memoryIndex.distances('other:model', query, [rows[0]?.rowid ?? 0])).toEqual(
      [],
    );
    expect(await store.memoryIndex.distances(stub.model, query, [])).toEqual([]);
  });

  it('z-score fusion scores every candidate on both channels and says so', async () => {
    const ids = await seed();
    const memory = createMemory(store, {
      scrubber: passThrough,
      embedder: stub,
      fusion: { method: 'zscore', ftsWeight: 0.5, vectorWeight: 0.5, depth: 1 },
    });
    // Full text finds only the ledger; the vector list (depth 1) holds only one boat text.
    const found = await memory.search({ query: 'boat', mode: 'hybrid', limit: 5, scope: {} });
    expect(found.results.every((r) => r.scoreBasis === 'fused')).toBe(true);
    expect(found.results[0]).toMatchObject({ id: ids['ledger'], ranks: { fts: 1 } });
    expect(found.results.map((r) => r.id)).not.toContain(ids['orchard']);
    const rrf = createMemory(store, { scrubber: passThrough, embedder: stub });
    const plain = await rrf.search({ query: 'boat', mode: 'hybrid', scope: {} });
    expect(plain.results[0]).toMatchObject({ id: ids['ledger'], scoreBasis: 'rrf' });
    expect(plain.results.map((r) => r.id)).toContain(ids['orchard']);
  });
});
