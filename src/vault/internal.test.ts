// The internal collection and the vault registry: saveInternal writes scrubbed system documents
// into _clawmem (excluded from retrieval filters by default, visible on opt-in), CAIRN_VAULTS
// parsing, resolving names with the available list, and the fragment embedding backlog.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { seeded } from '../../test/memory/secrets.js';
import { type VaultFixture, vaultFixture } from '../../test/vault-fixture.js';
import { INTERNAL_COLLECTION } from '../store/index.js';
import { listVaults, parseVaults, resolveVault, type VaultConfig } from './config.js';
import { createVaultEmbedWorker } from './embed-backlog.js';
import { VaultInputError, VaultUnknownError } from './errors.js';
import { getDocument } from './get.js';
import { saveInternal } from './internal.js';
import { syncVault } from './sync.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

const AT = Date.parse('2026-05-04T03:02:01.123Z');
const docsFor = async (
  q: string,
  over: { includeInternal?: boolean; collections?: string[] } = {},
) => [
  ...new Set(
    (await f.store.vaultIndex.fullText(q, { vault: 'default', now: AT, ...over }, 20)).map(
      (h) => h.documentId,
    ),
  ),
];

describe('saveInternal', () => {
  it('saves into _clawmem with origin api, a ms path, a type and scrubbed content', async () => {
    const token = `ghp_${seeded(3).mixed(36)}`;
    const saved = await saveInternal(
      f.store,
      f.scrubber,
      'default',
      { kind: 'handoff', title: 'Left off: the sync', content: `Next: wire it. token ${token}` },
      () => AT,
    );
    expect(saved).toMatchObject({
      collection: INTERNAL_COLLECTION,
      path: 'handoffs/2026-05-04T03-02-01.123Z-left-off-the-sync.md',
    });
    const doc = await getDocument(f.store, 'default', `#${saved.docid}`);
    expect(doc.document).toMatchObject({
      origin: 'api',
      contentType: 'handoff',
      title: 'Left off: the sync',
      modifiedAt: AT,
    });
    expect(doc.text).toContain('[REDACTED:github-token]');
    expect(doc.text).not.toContain(token);
    // Same kind, title and millisecond: a suffixed path, not an overwrite.
    const again = await saveInternal(
      f.store,
      f.scrubber,
      'default',
      { kind: 'handoff', title: 'Left off: the sync', content: 'second' },
      () => AT,
    );
    expect(again.path).toBe('handoffs/2026-05-04T03-02-01.123Z-left-off-the-sync-2.md');
    await expect(
      saveInternal(f.store, f.scrubber, 'default', { kind: 'diary', title: 't', content: ' ' }),
    ).rejects.toBeInstanceOf(VaultInputError);
  });

  it('is excluded from search by default and included on opt-in', async () => {
    f.write('notes/n.md', '# Note\nmerlin sighting');
    await syncVault(f.store, {
      vault: 'default',
      contentRoot: join(f.dir, 'notes'),
      scrubber: f.scrubber,
    });
    const obs = await saveInternal(f.store, f.scrubber, 'default', {
      kind: 'observation',
      title: 'Merlin',
      content: 'merlin again',
    });
    const user = await docsFor('merlin');
    expect(user).toHaveLength(1);
    expect(user).not.toContain(obs.id);
    expect((await docsFor('merlin', { includeInternal: true })).sort()).toEqual(
      [...user, obs.id].sort(),
    );
    expect(await docsFor('merlin', { collections: [INTERNAL_COLLECTION] })).toEqual([obs.id]);
    // Another vault has no such document at all.
    expect(
      await f.store.vaultIndex.fullText(
        'merlin',
        { vault: 'other', includeInternal: true, now: AT },
        5,
      ),
    ).toEqual([]);
  });
});

describe('vault config', () => {
  it('parses CAIRN_VAULTS as JSON or name=path pairs, refusing junk naming the variable', () => {
    expect([...parseVaults('{"work": "/n/work", "home": "/n/home"}')]).toEqual([
      ['work', '/n/work'],
      ['home', '/n/home'],
    ]);
    expect([...parseVaults('work=/n/work:home=/n/home')]).toEqual([
      ['work', '/n/work'],
      ['home', '/n/home'],
    ]);
    expect(parseVaults(undefined).size).toBe(0);
    expect(parseVaults('  ').size).toBe(0);
    for (const bad of ['{"a": 1}', '{oops', 'noequals', 'bad name=/x', '["a"]'])
      expect(() => parseVaults(bad), bad).toThrow(/CAIRN_VAULTS/);
  });

  it('resolves configured, synced and default vaults; an unknown name lists the available', async () => {
    const config: VaultConfig = { vaults: new Map([['work', '/n/work']]) };
    f.write('notes/x.md', '# X');
    await syncVault(f.store, {
      vault: 'synced',
      contentRoot: join(f.dir, 'notes'),
      scrubber: f.scrubber,
    });
    expect(await resolveVault(f.store, config)).toBe('default');
    expect(await resolveVault(f.store, config, 'work')).toBe('work');
    expect(await resolveVault(f.store, config, 'synced')).toBe('synced');
    const err = await resolveVault(f.store, config, 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultUnknownError);
    expect((err as Error).message).toBe('unknown vault "nope"; available: default, synced, work');
    const list = await listVaults(f.store, config);
    expect(list.map((v) => [v.name, v.configured, v.collections])).toEqual([
      ['default', false, []],
      ['synced', false, ['synced']],
      ['work', true, []],
    ]);
    expect(list[1]?.contentRoot).toBe(join(f.dir, 'notes'));
  });
});

describe('fragment embedding backlog', () => {
  it('embeds every fragment of active documents off the request path, then has nothing pending', async () => {
    f.write('notes/a.md', '# A\npara\n\n- item');
    f.write('notes/b.md', '# B');
    await syncVault(f.store, {
      vault: 'default',
      contentRoot: join(f.dir, 'notes'),
      scrubber: f.scrubber,
    });
    const texts: string[] = [];
    const embedder = {
      model: 'stub:2d',
      embed: (batch: readonly string[]) => {
        texts.push(...batch);
        return Promise.resolve(batch.map((t) => new Float32Array([1, t.length])));
      },
    };
    const worker = createVaultEmbedWorker({ store: f.store, embedder, batchSize: 2 });
    try {
      expect(await worker.pending()).toBe(5);
      expect(await worker.drain()).toBe(5);
      expect(await worker.pending()).toBe(0);
      expect(texts).toContain('A\nA\n# A\npara');
      const hits = await f.store.vaultIndex.nearest(
        'stub:2d',
        new Float32Array([1, 0]),
        { vault: 'default', now: AT },
        10,
      );
      expect(hits).toHaveLength(5);
      for (const h of hits) expect(h.cosine).toBeGreaterThan(0);
    } finally {
      await worker.stop();
    }
  });
});
