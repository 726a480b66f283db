// Declared causal edges through a real SDK client on a real store: frontmatter caused_by and
// causes (a string or a list; a docid or a path) become 'declared' causal edges on vault_sync;
// a reference to a missing document is reported and resolves when the document appears; a
// changed declaration re-derives its edges; other origins' edges are left alone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { upsertVaultEdge } from '../../src/store/index.js';
import { type DeclaredReport, saveInternal } from '../../src/vault/index.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
beforeEach(async () => {
  s = await vaultSetup({ embedder: null });
});
afterEach(() => s.close());

const md = (fm: string, body: string): string => `---\n${fm}\n---\n# ${body}\n\n${body}.\n`;

async function sync(): Promise<{ text: string; declared: DeclaredReport }> {
  const r = await callVault<{ declared: DeclaredReport }>(s.client, 'vault_sync', {
    vault: 'default',
    content_root: s.notes.path,
  });
  return { text: r.text, declared: r.data.declared };
}

/** The vault's causal edges as "source → target (origin): reasoning", by source path. */
async function edges(): Promise<string[]> {
  const rows = await s.core.store.all<{ s: string; t: string; o: string; r: string | null }>(
    `SELECT a.path AS s, b.path AS t, e.origin AS o, e.reasoning AS r FROM vault_edges e
     JOIN vault_documents a ON a.id = e.source_id JOIN vault_documents b ON b.id = e.target_id
     WHERE e.edge_type = 'causal' ORDER BY a.path, b.path`,
  );
  return rows.map((x) => `${x.s} → ${x.t} (${x.o}): ${x.r ?? ''}`);
}

async function docidOf(path: string): Promise<string> {
  const r = await callVault<{ document: { docid: string } }>(s.client, 'get', { file: path });
  return `#${r.data.document.docid}`;
}

describe('declared causal edges', () => {
  it('reads both keys, strings and lists, docids and paths', async () => {
    const first = await sync();
    expect(first.declared).toMatchObject({ edges: 0, unresolved: 0 });
    const lunch = await docidOf('notes/lunch.md');
    writeNotes(s.notes.path, {
      'incidents/outage.md': md('causes: decisions/queue.md', 'Outage of the ingest'),
      'postmortems/pm.md': md(
        `caused_by:\n  - ./incidents/outage.md\n  - "${lunch}"\ncauses: default/notes/lunch.md`,
        'Postmortem of the week',
      ),
    });
    const r = await sync();
    expect(r.declared).toMatchObject({ edges: 4, added: 4, removed: 0, unresolved: 0 });
    expect(r.text).toContain('4 declared causal edge(s) (4 added, 0 removed)');
    expect(await edges()).toEqual([
      'incidents/outage.md → decisions/queue.md (declared): declared in incidents/outage.md frontmatter (causes)',
      'incidents/outage.md → postmortems/pm.md (declared): declared in postmortems/pm.md frontmatter (caused_by)',
      'notes/lunch.md → postmortems/pm.md (declared): declared in postmortems/pm.md frontmatter (caused_by)',
      'postmortems/pm.md → notes/lunch.md (declared): declared in postmortems/pm.md frontmatter (causes)',
    ]);
    const again = await sync();
    expect(again.declared).toMatchObject({ edges: 4, added: 0, removed: 0 });
  });

  it('keeps an unresolved reference pending, reports it, and resolves it when the target appears', async () => {
    writeNotes(s.notes.path, {
      'notes/effect.md': md('caused_by: notes/later.md', 'An effect'),
      'notes/commented.md': md('caused_by: #a1b2c3', 'A docid YAML reads as a comment'),
    });
    const r = await sync();
    expect(r.declared.unresolved).toBe(2);
    expect(r.declared.unresolvedFirst).toEqual([
      expect.objectContaining({ path: 'notes/commented.md', key: 'caused_by', ref: 'null' }),
      {
        path: 'notes/effect.md',
        key: 'caused_by',
        ref: 'notes/later.md',
        reason: 'no active document at this path',
      },
    ]);
    expect(r.declared.unresolvedFirst[0]?.reason).toMatch(/quote a docid/);
    expect(r.text).toContain('2 unresolved reference(s) kept pending');
    expect(await edges()).toEqual([]);
    writeNotes(s.notes.path, { 'notes/later.md': '# Later\n\nThe cause arrives later.\n' });
    const later = await sync();
    expect(later.declared).toMatchObject({ edges: 1, added: 1, unresolved: 1 });
    expect(await edges()).toEqual([
      'notes/later.md → notes/effect.md (declared): declared in notes/effect.md frontmatter (caused_by)',
    ]);
  });

  it('re-derives a changed declaration and drops the edges of a deleted declarer', async () => {
    writeNotes(s.notes.path, {
      'incidents/outage.md': md('causes: decisions/queue.md', 'Outage'),
      'notes/effect.md': md('caused_by: incidents/outage.md', 'Effect'),
    });
    await sync();
    writeNotes(s.notes.path, {
      'incidents/outage.md': md('causes: [research/backoff.md]', 'Outage, edited'),
    });
    const changed = await sync();
    expect(changed.declared).toMatchObject({ edges: 2, added: 1, removed: 1 });
    expect(await edges()).toEqual([
      'incidents/outage.md → notes/effect.md (declared): declared in notes/effect.md frontmatter (caused_by)',
      'incidents/outage.md → research/backoff.md (declared): declared in incidents/outage.md frontmatter (causes)',
    ]);
    rmSync(join(s.notes.path, 'notes/effect.md'));
    const gone = await sync();
    expect(gone.declared).toMatchObject({ edges: 1, removed: 1 });
    expect((await edges()).map((e) => e.split(' (')[0])).toEqual([
      'incidents/outage.md → research/backoff.md',
    ]);
  });

  it('leaves edges of other origins alone', async () => {
    await sync();
    const [queue, lunch] = await s.core.store.all<{ id: number }>(
      `SELECT id FROM vault_documents WHERE path IN ('decisions/queue.md', 'notes/lunch.md')
       ORDER BY path`,
    );
    await s.core.store.write((tx) =>
      upsertVaultEdge(
        tx,
        {
          ...{ vault: 'default', sourceId: queue?.id ?? 0, targetId: lunch?.id ?? 0 },
          // Not 'extracted': the fact derivation owns those and would drop an edge no fact supports.
          ...{ type: 'causal', weight: 0.6, origin: 'built', reasoning: 'because' },
        },
        Date.now(),
      ),
    );
    writeNotes(s.notes.path, { 'notes/x.md': md('causes: notes/lunch.md', 'X') });
    await sync();
    rmSync(join(s.notes.path, 'notes/x.md'));
    expect((await sync()).declared).toMatchObject({ edges: 0, removed: 1 });
    expect(await edges()).toEqual(['decisions/queue.md → notes/lunch.md (built): because']);
  });

  it('resolves a pending declaration when an internal save writes the document it names', async () => {
    writeNotes(s.notes.path, {
      'notes/fallout.md': md('caused_by: _clawmem/handoffs/shift.md', 'Fallout of the shift'),
    });
    expect((await sync()).declared.unresolved).toBe(1);
    const { store, scrubber } = s.core.vault;
    await saveInternal(store, scrubber, 'default', {
      ...{ kind: 'handoff', title: 'Unrelated', content: 'Nothing names this one.' },
    });
    expect(await edges()).toEqual([]);
    await saveInternal(store, scrubber, 'default', {
      ...{ kind: 'handoff', title: 'Shift', content: 'The night shift.', base: 'handoffs/shift' },
    });
    expect(await edges()).toEqual([
      '_clawmem/handoffs/shift.md → notes/fallout.md (declared): declared in notes/fallout.md frontmatter (caused_by)'.replace(
        '_clawmem/',
        '',
      ),
    ]);
  });
});
