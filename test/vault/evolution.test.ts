// A-MEM notes and memory_evolution_status through a real SDK client on a real store: a written
// document gets a note; a related newcomer's arrival evolves it (keywords and tags absorbed,
// context naming the newcomer, logged with the trigger); an unrelated one does not; a rewrite
// is logged as such; limit and truncation; the honest empties (never evolved, no note yet)
// and the refusals (unknown docid, bad arguments).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EvolutionStatus } from '../../src/vault/index.js';
import { callInvalid, tempDir, type TempDir, textOf } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';

let s: VaultSetup;
let lab: TempDir;
beforeEach(async () => {
  s = await vaultSetup();
  lab = tempDir('cairn-vault-lab-');
});
afterEach(async () => {
  await s.close();
  lab.cleanup();
});

const KESTREL = `---\ntags: [infra]\n---\n# Kestrel migration\n\nThe kestrel cluster migration moves the orchid ledger. Kestrel nodes replicate the orchid ledger nightly.\n`;
const AUDIT = `---\ntags: [audit, infra]\n---\n# Orchid ledger audit\n\nThe orchid ledger audit checks kestrel replication and the walrus checksum. Walrus checksums guard the ledger.\n`;
const LUNCH = `# Lunch menu\n\nTacos and burritos on friday at the food truck.\n`;

async function add(files: Record<string, string>): Promise<void> {
  writeNotes(lab.path, files);
  await s.sync('lab', lab.path);
}

const status = (args: Record<string, unknown>) =>
  callVault<EvolutionStatus>(s.client, 'memory_evolution_status', { vault: 'lab', ...args });

describe('A-MEM notes and memory_evolution_status', () => {
  it('says a fresh note never evolved, then logs a related newcomer with the right diff', async () => {
    await add({ 'kestrel.md': KESTREL });
    const fresh = await status({ docid: 'kestrel.md' });
    expect(fresh.data.entries).toEqual([]);
    expect(fresh.data.total).toBe(0);
    expect(fresh.data.message).toMatch(/^no evolution recorded since \d{4}-\d\d-\d\dT/);
    expect(fresh.data.note?.keywords).toContain('kestrel');
    expect(fresh.data.note?.tags).toEqual(['infra']);

    await add({ 'audit.md': AUDIT });
    const audit = (await status({ docid: 'audit.md' })).data.note;
    const r = await status({ docid: 'kestrel.md' });
    expect(r.data.total).toBe(1);
    const [entry] = r.data.entries;
    expect(entry?.trigger).toMatchObject({ path: 'audit.md', title: 'Orchid ledger audit' });
    expect(entry?.rewrite).toBe(false);
    expect(entry?.tags).toEqual({ added: ['audit'], removed: [] });
    expect(entry?.keywords.removed).toEqual([]);
    expect(entry?.keywords.added.length).toBeGreaterThan(0);
    for (const k of entry?.keywords.added ?? []) expect(audit?.keywords).toContain(k);
    expect(entry?.context?.before).toBe(fresh.data.note?.context);
    expect(entry?.context?.after).toMatch(/ — related: "Orchid ledger audit"$/);
    expect(r.data.note?.keywords).toEqual([
      ...(fresh.data.note?.keywords ?? []),
      ...(entry?.keywords.added ?? []),
    ]);
    expect(r.text).toMatch(/← #[0-9a-f]+ lab\/audit\.md "Orchid ledger audit": keywords \+/);
  });

  it('does not evolve a note when an unrelated document arrives', async () => {
    await add({ 'kestrel.md': KESTREL });
    await add({ 'lunch.md': LUNCH });
    expect((await status({ docid: 'kestrel.md' })).data.total).toBe(0);
    expect((await status({ docid: 'lunch.md' })).data.total).toBe(0);
  });

  it('logs a rewrite, answers newest first, and truncates at limit', async () => {
    await add({ 'kestrel.md': KESTREL });
    await add({ 'audit.md': AUDIT });
    await add({
      'kestrel.md': `${KESTREL}\nThe kestrel failover drill uses the orchid ledger snapshot.\n`,
    });
    await add({
      'drill.md': `# Kestrel drill\n\nKestrel failover drills replay the orchid ledger from a heron snapshot.\n`,
    });
    const all = await status({ docid: 'kestrel.md', limit: 100 });
    expect(all.data.total).toBe(3);
    expect(all.data.entries.map((e) => (e.rewrite ? 'rewrite' : e.trigger?.path))).toEqual([
      'drill.md',
      'rewrite',
      'audit.md',
    ]);
    expect(all.data.entries[1]?.trigger?.path).toBe('kestrel.md');
    expect(all.text).toMatch(/Z rewritten: keywords \+/);
    const one = await status({ docid: 'kestrel.md', limit: 1 });
    expect(one.data.entries).toHaveLength(1);
    expect(one.data).toMatchObject({ total: 3, truncated: true });
    expect(one.text).toContain('(2 older entr(ies) not shown; raise limit)');
  });

  it('says when a document has no note, refuses unknown documents and bad arguments', async () => {
    await add({ 'kestrel.md': KESTREL });
    await s.core.store.run('DELETE FROM vault_notes');
    const none = await status({ docid: 'kestrel.md' });
    expect(none.data.note).toBeNull();
    expect(none.data.message).toMatch(/^no A-MEM note for #[0-9a-f]+ yet/);
    const unknown = await s.client.callTool({
      name: 'memory_evolution_status',
      arguments: { vault: 'lab', docid: 'nope.md' },
    });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/no document nope\.md in vault "lab"/);
    const bad = (args: Record<string, unknown>) =>
      callInvalid(s.client, 'memory_evolution_status', args);
    expect(await bad({ docid: 'kestrel.md', limit: 0 })).toMatch(/limit/);
    expect(await bad({ docid: 'kestrel.md', limit: 101 })).toMatch(/limit/);
    expect(await bad({ docid: 'kestrel.md', limit: 'ten' })).toMatch(/limit/);
    expect(await bad({ docid: '' })).toMatch(/docid/);
    expect(await bad({})).toMatch(/docid/);
  });
});
