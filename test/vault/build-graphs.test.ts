// build_graphs through a real SDK client on a real store: the temporal backbone is idempotent,
// re-links truthfully around a document that arrives between two others and around one that
// goes inactive; the semantic graph (stub embedder) links pairs at the threshold once, follows
// a changed threshold, continues a pass its budget stopped, and says why documents were
// skipped without an embedder or a vector yet; only the
// requested types answer; hostile arguments are refused naming the field.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { countActiveEdges } from '../../src/store/index.js';
import { type BuildGraphsAnswer, buildGraphs } from '../../src/vault/index.js';
import { callInvalid, textOf } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function setup(options: Parameters<typeof vaultSetup>[0] = {}): Promise<VaultSetup> {
  s = await vaultSetup(options);
  await s.sync();
  return s;
}

const build = (v: VaultSetup, args: Record<string, unknown>) =>
  callVault<BuildGraphsAnswer>(v.client, 'build_graphs', args);

/** The built edges of `type` as `source path → target path`, sorted. */
async function edges(v: VaultSetup, type: string): Promise<string[]> {
  const rows = await v.core.store.all<{ s: string; t: string }>(
    `SELECT s.path AS s, t.path AS t FROM vault_edges e
     JOIN vault_documents s ON s.id = e.source_id JOIN vault_documents t ON t.id = e.target_id
     WHERE e.edge_type = ? ORDER BY s.path, t.path`,
    [type],
  );
  return rows.map((r) => `${r.s} → ${r.t}`);
}

const MID = `---\ndate: 2026-11-01\n---\n# Mid\n\nBetween the queue decision and the handoff.\n`;

describe('build_graphs: temporal', () => {
  it('links consecutive documents once; a rebuild writes nothing and keeps the total', async () => {
    const v = await setup();
    const first = await build(v, { graph_types: ['temporal'] });
    expect(first.data).toMatchObject({ temporal: 3, temporalTotal: 3, temporalRemoved: 0 });
    expect(first.text).toBe('Temporal graph: 3 new edge(s), 3 total.');
    expect(first.data).not.toHaveProperty('semantic');
    expect(first.data).not.toHaveProperty('semanticTotal');
    const again = await build(v, { graph_types: ['temporal'] });
    expect(again.data).toMatchObject({ temporal: 0, temporalTotal: 3, temporalRemoved: 0 });
    expect(again.text).toBe('Temporal graph: 0 new edge(s), 3 total.');
    // Effective time: the decision (authored 2026-10-01), the handoff (2026-11-30), then the
    // two undated notes by mtime.
    expect((await edges(v, 'temporal'))[0]).toMatch(/^decisions\/queue\.md → handoffs\//);
  });

  it('re-links around a document that arrives in between, and one that goes inactive', async () => {
    const v = await setup();
    await build(v, { graph_types: ['temporal'] });
    writeNotes(v.notes.path, { 'notes/mid.md': MID });
    await v.sync();
    const relinked = await build(v, { graph_types: ['temporal'] });
    expect(relinked.data).toMatchObject({ temporal: 2, temporalTotal: 4, temporalRemoved: 1 });
    expect(relinked.text).toContain('Temporal: 1 stale edge(s) removed');
    const chain = await edges(v, 'temporal');
    expect(chain).toContain('decisions/queue.md → notes/mid.md');
    expect(chain).toContain('notes/mid.md → handoffs/2026-11-30.md');
    expect(chain).not.toContain('decisions/queue.md → handoffs/2026-11-30.md');

    rmSync(join(v.notes.path, 'notes/mid.md'));
    await v.sync();
    // Before any rebuild the total already leaves out edges with an inactive end.
    expect(await countActiveEdges(v.core.store, 'default', 'temporal')).toBe(2);
    const healed = await build(v, { graph_types: ['temporal'] });
    expect(healed.data).toMatchObject({ temporal: 1, temporalTotal: 3, temporalRemoved: 2 });
    expect(await edges(v, 'temporal')).toContain('decisions/queue.md → handoffs/2026-11-30.md');
  });
});

describe('build_graphs: semantic', () => {
  it('links the pairs at the threshold once, weight the cosine, and follows a new threshold', async () => {
    const v = await setup();
    const first = await build(v, { graph_types: ['semantic'] });
    expect(first.data).toMatchObject({ semantic: 1, semanticTotal: 1, semanticThreshold: 0.7 });
    expect(first.data.semanticDocuments).toMatchObject({ compared: 4, skipped: 0, complete: true });
    expect(first.text.split('\n')[0]).toBe('Semantic graph: 1 new edge(s), 1 total.');
    expect(first.data).not.toHaveProperty('temporal');
    expect(await edges(v, 'semantic')).toEqual(['decisions/queue.md → research/backoff.md']);
    const again = await build(v, { graph_types: ['semantic'] });
    expect(again.data).toMatchObject({ semantic: 0, semanticTotal: 1, semanticRemoved: 0 });
    const loose = await build(v, { graph_types: ['semantic'], semantic_threshold: 0 });
    expect(loose.data).toMatchObject({ semantic: 5, semanticTotal: 6 });
    const strict = await build(v, { graph_types: ['semantic'], semantic_threshold: 0.7 });
    expect(strict.data).toMatchObject({ semantic: 0, semanticTotal: 1, semanticRemoved: 5 });
    const weight = await v.core.store.get<{ w: number }>(
      "SELECT weight AS w FROM vault_edges WHERE edge_type = 'semantic'",
    );
    expect(weight?.w).toBeGreaterThan(0.99);
  });

  it('continues a pass its budget stopped, and removes nothing until a whole pass', async () => {
    const v = await setup();
    const deps = v.core.vault.deps;
    const args = { graph_types: ['semantic' as const], semantic_threshold: 0 };
    const part = await buildGraphs(deps, 'default', args, { stop: (n) => n >= 2 });
    expect(part.semanticDocuments).toMatchObject({ compared: 2, complete: false, skipped: 2 });
    expect(part.semanticDocuments?.skippedReason).toBe(
      '2 not reached within the budget (call again to continue)',
    );
    const next = part.semanticDocuments?.next ?? undefined;
    expect(next).toBeTypeOf('number');
    const rest = await buildGraphs(deps, 'default', args, { after: next });
    expect(rest.semanticDocuments).toMatchObject({
      compared: 2,
      comparedEarlier: 2,
      complete: true,
      next: null,
    });
    expect((part.semantic ?? 0) + (rest.semantic ?? 0)).toBe(6);
    expect(rest.semanticTotal).toBe(6);
    // A partial pass at a stricter threshold removes nothing; the whole pass does.
    const strict = { graph_types: ['semantic' as const], semantic_threshold: 0.7 };
    const partStrict = await buildGraphs(deps, 'default', strict, { stop: (n) => n >= 1 });
    expect(partStrict).toMatchObject({ semanticRemoved: 0, semanticTotal: 6 });
    const whole = await buildGraphs(deps, 'default', strict);
    expect(whole).toMatchObject({ semanticRemoved: 5, semanticTotal: 1 });
  });

  it('skips documents the embedding backlog has not reached, saying so', async () => {
    const v = await setup();
    // As if the backlog had not embedded the research note yet.
    await v.core.store.run(
      `DELETE FROM vault_vectors WHERE fragment_id IN (SELECT f.id FROM vault_fragments f
         JOIN vault_documents d ON d.id = f.document_id WHERE d.path = 'research/backoff.md')`,
    );
    const r = await build(v, { graph_types: ['semantic'] });
    expect(r.data).toMatchObject({ semantic: 0, semanticTotal: 0 });
    expect(r.data.semanticDocuments).toMatchObject({
      compared: 3,
      skipped: 1,
      skippedReason: '1 without a stub:vault3 vector yet (embedding backlog)',
    });
    expect(r.text).toContain('3 document(s) compared at threshold 0.7; 1 skipped: 1 without');
  });

  it('says how many documents it skipped and why when there is no embedder', async () => {
    const v = await setup({ embedder: null });
    const r = await build(v, {});
    expect(r.data).toMatchObject({ temporal: 3, temporalTotal: 3, semantic: 0, semanticTotal: 0 });
    expect(r.data.semanticDocuments).toMatchObject({ compared: 0, skipped: 4 });
    expect(r.data.semanticDocuments?.skippedReason).toMatch(/no embedder/);
    expect(r.text.split('\n')).toEqual([
      'Temporal graph: 3 new edge(s), 3 total.',
      'Semantic graph: 0 new edge(s), 0 total.',
      'Semantic: 0 document(s) compared at threshold 0.7; 4 skipped: no embedder is configured (CAIRN_EMBEDDINGS=none).',
    ]);
  });
});

describe('build_graphs: arguments', () => {
  it('refuses hostile arguments naming the field', async () => {
    const v = await setup();
    const bad = (args: Record<string, unknown>) => callInvalid(v.client, 'build_graphs', args);
    expect(await bad({ graph_types: 'temporal' })).toMatch(/graph_types/);
    expect(await bad({ graph_types: ['bogus'] })).toMatch(/graph_types/);
    expect(await bad({ graph_types: [] })).toMatch(/graph_types/);
    expect(await bad({ semantic_threshold: 1.5 })).toMatch(/semantic_threshold/);
    expect(await bad({ semantic_threshold: -0.1 })).toMatch(/semantic_threshold/);
    expect(await bad({ semantic_threshold: 'high' })).toMatch(/semantic_threshold/);
    const unknown = await v.client.callTool({ name: 'build_graphs', arguments: { vault: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('unknown vault "nope"; available: default');
  });
});
