// Cross-document causal links derived on sync, seen through find_causal_links on a real store:
// the chain of a small corpus with its witnesses, a re-sync writing nothing, a changed document
// re-deriving its links, and a deleted document's links going.
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  CAUSAL_SOURCES_PER_CAUSE,
  type CausalTraversal,
  saveInternal,
} from '../../src/vault/index.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup();
});
afterEach(() => s.close());

/** D states log rotation → A (disk filled up because of it) → B (queue overflowed) → C. */
const CHAIN = {
  'incident/a.md':
    '# Disk\n\nThe cleanup job runs nightly. The disk filled up because of log rotation.\n',
  'incident/b.md':
    '# Queue\n\nThe ingest queue overflowed because the disk filled up. Paging was noisy.\n',
  'incident/c.md': '# Rota\n\nThe on-call rotation changed due to the ingest queue overflowed.\n',
  'incident/d.md': '# Ops\n\nOps adopted log rotation.\n',
};

const links = (args: Record<string, unknown>) =>
  callVault<CausalTraversal>(s.client, 'find_causal_links', args);
const pairs = (r: { data: CausalTraversal }): string[] =>
  r.data.links.map(
    (l) => `${l.sourcePath}>${l.targetPath} d${l.depth} ${l.direction} via ${l.predecessorDocId}`,
  );

async function docid(path: string): Promise<string> {
  const r = await callVault<{ document: { docid: string } }>(s.client, 'get', { file: path });
  return `#${r.data.document.docid}`;
}

/** Every causal edge and witness row, as comparable values. */
async function graphRows(): Promise<unknown[]> {
  return s.core.store.read(async (db) => [
    ...(await db.all(
      `SELECT id, source_id, target_id, weight, origin, reasoning, confidence, updated_at
       FROM vault_edges WHERE edge_type = 'causal' ORDER BY id`,
    )),
    ...(await db.all('SELECT * FROM vault_causal_witnesses ORDER BY edge_id, source_fact')),
  ]);
}

describe('causal links derived from extracted facts', () => {
  it('links a cause-stating document to the one naming it as a cause, with the fact pair', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    const b = await docid('incident/b.md');
    const r = await links({ docid: 'incident/b.md' });
    expect(pairs(r)).toEqual([
      `incident/a.md>incident/b.md d1 caused_by via ${b}`,
      `incident/b.md>incident/c.md d1 causes via ${b}`,
      `incident/d.md>incident/a.md d2 caused_by via ${await docid('incident/a.md')}`,
    ]);
    const ab = r.data.links[0];
    expect(ab).toMatchObject({
      sourceDocId: await docid('incident/a.md'),
      targetDocId: b,
      origin: 'extracted',
      weight: 0.9,
      evidenceCount: 1,
    });
    expect(ab?.witnesses).toEqual([
      expect.objectContaining({
        sourceFactOrdinal: 0,
        targetFactOrdinal: 0,
        sourceFact: 'The disk filled up because of log rotation.',
        targetFact: 'The ingest queue overflowed because the disk filled up.',
        confidence: 0.9,
        legacy: false,
      }),
    ]);
    expect(ab?.witnesses[0]?.reasoning).toMatch(/explains why "disk filled up" happened/);
    expect(ab?.witnesses[0]?.strongestAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const da = r.data.links[2];
    expect(da?.witnesses[0]).toMatchObject({
      confidence: 0.7,
      sourceFact: 'Ops adopted log rotation.',
    });
    expect(r.text).toMatch(/per-edge evidence along the walk, not a verified causal chain/);
  });

  it('writes nothing on a re-sync of an unchanged corpus', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    const before = await graphRows();
    expect(before.length).toBeGreaterThan(0);
    expect(await s.sync()).toMatchObject({ added: 0, updated: 0 });
    expect(await graphRows()).toEqual(before);
  });

  it('re-derives the links of a changed document, as target and as source', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    writeNotes(s.notes.path, { 'incident/a.md': '# Disk\n\nThe disk is fine.\n' });
    await s.sync();
    expect(pairs(await links({ docid: 'incident/b.md', depth: 1 }))).toEqual([
      `incident/b.md>incident/c.md d1 causes via ${await docid('incident/b.md')}`,
    ]);
    const a = await links({ docid: 'incident/a.md' });
    expect(a.data.links).toEqual([]);
    expect(a.data.message).toMatch(/has no causal edges with active documents/);
    writeNotes(s.notes.path, {
      'incident/a.md':
        '# Disk\n\nThe cleanup job depends on cron. The disk filled up because of log rotation.\n',
    });
    await s.sync();
    const again = await links({ docid: 'incident/a.md', depth: 1 });
    expect(pairs(again)).toEqual([
      `incident/a.md>incident/b.md d1 causes via ${await docid('incident/a.md')}`,
      `incident/d.md>incident/a.md d1 caused_by via ${await docid('incident/a.md')}`,
    ]);
    expect(again.data.links[0]?.witnesses[0]?.sourceFactOrdinal).toBe(1);
  });

  it('removes the links of a deleted document', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    rmSync(join(s.notes.path, 'incident/b.md'));
    expect(await s.sync()).toMatchObject({ deactivated: 1 });
    expect(pairs(await links({ docid: 'incident/a.md' }))).toEqual([
      `incident/d.md>incident/a.md d1 caused_by via ${await docid('incident/a.md')}`,
    ]);
    const c = await links({ docid: 'incident/c.md' });
    expect(c.data.links).toEqual([]);
    const rows = await s.core.store.read((db) =>
      db.all(`SELECT id FROM vault_edges WHERE origin = 'extracted'`),
    );
    expect(rows).toHaveLength(1);
  });

  it('links internal documents too (not filtered by the internal-collection policy)', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    const saved = await saveInternal(s.core.store, s.core.vault.scrubber, 'default', {
      kind: 'observation',
      title: 'Pager',
      content: 'The pager stayed loud because the ingest queue overflowed.',
    });
    const r = await links({ docid: 'incident/b.md', direction: 'causes', depth: 1 });
    expect(r.data.links.map((l) => l.targetPath).sort()).toEqual(['incident/c.md', saved.path]);
  });

  it('removes the links of a forgotten document', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    await callVault(s.client, 'memory_forget', { query: 'incident/a.md' });
    expect(pairs(await links({ docid: 'incident/b.md' }))).toEqual([
      `incident/b.md>incident/c.md d1 causes via ${await docid('incident/b.md')}`,
    ]);
    expect((await links({ docid: 'incident/d.md' })).data.links).toEqual([]);
  });

  it('brings a restored file’s links back, even when its content is unchanged', async () => {
    writeNotes(s.notes.path, CHAIN);
    await s.sync();
    const file = join(s.notes.path, 'incident/b.md');
    const text = readFileSync(file, 'utf8');
    rmSync(file);
    await s.sync();
    writeFileSync(file, text);
    expect(await s.sync()).toMatchObject({ reactivated: 1, updated: 0 });
    expect(pairs(await links({ docid: 'incident/b.md', depth: 1 }))).toHaveLength(2);
  });

  it('links the newest documents stating a cause, and the next one when one goes', async () => {
    const n = CAUSAL_SOURCES_PER_CAUSE + 2;
    writeNotes(s.notes.path, { 'cap/t.md': 'The rollout stalled because of the flag service.\n' });
    for (let k = 1; k <= n; k += 1) {
      const path = `cap/s${String(k).padStart(2, '0')}.md`;
      writeNotes(s.notes.path, { [path]: `Team ${k} adopted the flag service.\n` });
      const t = new Date(Date.UTC(2024, 0, k));
      utimesSync(join(s.notes.path, path), t, t);
    }
    await s.sync();
    const sources = async () =>
      (await links({ docid: 'cap/t.md', direction: 'caused_by' })).data.links
        .map((l) => l.sourcePath)
        .sort();
    const newest = Array.from({ length: n }, (_, i) => `cap/s${String(i + 1).padStart(2, '0')}.md`);
    expect(await sources()).toEqual(newest.slice(2));
    rmSync(join(s.notes.path, 'cap/s10.md'));
    await s.sync();
    expect(await sources()).toEqual(newest.slice(1, n - 1));
  });
});
