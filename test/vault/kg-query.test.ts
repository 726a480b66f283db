// kg_query through a real SDK client on a real store: facts extracted on sync, validity as of
// a date (a triple ended before the date is not returned), direction, evidence counting with
// duplicates collapsing, the 5-source cap, re-sync adding nothing, unknown entities, bad args.
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { KgAnswer } from '../../src/vault/index.js';
import { callInvalid } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup();
});
afterEach(() => s.close());

const kg = (args: Record<string, unknown>) => callVault<KgAnswer>(s.client, 'kg_query', args);
const triples = (r: { data: KgAnswer }): string[] =>
  r.data.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`);

/** Writes files under the notes folder with their mtime set to `date`. */
function writeDated(files: Record<string, string>, date: string): void {
  writeNotes(s.notes.path, files);
  const t = new Date(`${date}T12:00:00Z`);
  for (const path of Object.keys(files)) utimesSync(join(s.notes.path, path), t, t);
}

describe('kg_query', () => {
  it('answers an entity’s facts in both directions or one', async () => {
    writeDated(
      { 'kg/deps.md': 'The indexer depends on tree-sitter. The parser depends on the indexer.\n' },
      '2024-01-01',
    );
    await s.sync();
    expect(triples(await kg({ entity: 'indexer' }))).toEqual([
      'indexer depends_on tree-sitter',
      'parser depends_on indexer',
    ]);
    expect(triples(await kg({ entity: 'indexer', direction: 'outgoing' }))).toEqual([
      'indexer depends_on tree-sitter',
    ]);
    expect(triples(await kg({ entity: 'Indexer', direction: 'incoming' }))).toEqual([
      'parser depends_on indexer',
    ]);
    const r = await kg({ entity: 'tree sitter' });
    expect(r.data.resolvedBy).toBe('slug');
    expect(r.data.facts[0]).toMatchObject({
      valid_from: '2024-01-01',
      valid_to: null,
      current: true,
    });
    expect(r.text).toMatch(
      /indexer —depends_on→ tree-sitter .*\[evidence ×1; sources: default\/kg\/deps\.md \(#[0-9a-f]+\)\]/,
    );
  });

  it('ends a fact its document no longer states, and as_of sees it only while it held', async () => {
    writeDated({ 'kg/owner.md': 'The data team owns the search index.\n' }, '2020-01-01');
    await s.sync();
    const again = await s.sync();
    expect(again).toMatchObject({ added: 0, updated: 0 });
    expect((await kg({ entity: 'search index' })).data.facts).toHaveLength(1);
    writeDated({ 'kg/owner.md': 'The search index moved.\n' }, '2020-02-01');
    await s.sync();
    const now = await kg({ entity: 'search index' });
    expect(now.data.facts).toEqual([]);
    expect(now.data.message).toMatch(/entity found .* but no current both facts/);
    const then = await kg({ entity: 'search index', as_of: '2021-06-01' });
    expect(then.data.facts[0]).toMatchObject({ current: false, evidenceCount: 0 });
    expect((await kg({ entity: 'search index', as_of: '2019-06-01' })).data.facts).toEqual([]);
    expect((await kg({ entity: 'search index', as_of: '2099-01-01' })).data.facts).toEqual([]);
  });

  it('removes a deleted document’s evidence on re-sync', async () => {
    writeDated({ 'kg/a.md': 'Sam created the onboarding guide.\n' }, '2024-01-01');
    await s.sync();
    rmSync(join(s.notes.path, 'kg/a.md'));
    await s.sync();
    expect((await kg({ entity: 'onboarding guide' })).data.facts).toEqual([]);
  });

  it('counts unique (document, fact) pairs and keeps the 5 newest sources', async () => {
    const fact = 'The platform team owns the billing service.';
    writeDated({ 'kg/twice.md': `${fact}\n\n${fact}\n` }, '2024-01-01');
    for (let i = 1; i <= 6; i += 1) writeDated({ [`kg/n${i}.md`]: `${fact}\n` }, `2024-02-0${i}`);
    await s.sync();
    const r = await kg({ entity: 'platform team' });
    expect(r.data.facts).toHaveLength(1);
    const f = r.data.facts[0];
    expect(f?.evidenceCount).toBe(7);
    expect(f?.sources.map((x) => x.path)).toEqual([
      'kg/n6.md',
      'kg/n5.md',
      'kg/n4.md',
      'kg/n3.md',
      'kg/n2.md',
    ]);
    expect(f?.sources[0]).toMatchObject({ collection: 'default', fact, unattributed: false });
  });

  it('answers an unknown entity honestly and refuses bad arguments by field', async () => {
    const none = await kg({ entity: 'anything' });
    expect(none.data).toMatchObject({ facts: [], resolvedBy: null });
    expect(none.data.message).toMatch(/no facts in vault default/);
    writeDated({ 'kg/deps.md': 'The indexer depends on tree-sitter.\n' }, '2024-01-01');
    await s.sync();
    const missing = await kg({ entity: 'Kubernetes' });
    expect(missing.data.message).toMatch(
      /no entity "Kubernetes".*full text, then slug "kubernetes"/,
    );
    expect(await callInvalid(s.client, 'kg_query', { entity: 'x', as_of: '2024-13-01' })).toMatch(
      /as_of/,
    );
    expect(await callInvalid(s.client, 'kg_query', { entity: 'x', as_of: 'yesterday' })).toMatch(
      /as_of/,
    );
    expect(await callInvalid(s.client, 'kg_query', { entity: 'x', direction: 'up' })).toMatch(
      /direction/,
    );
    expect(await callInvalid(s.client, 'kg_query', {})).toMatch(/entity/);
  });
});
