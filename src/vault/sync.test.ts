// syncVault on real directories: restricted roots and files (also through symlinks), the
// incremental re-sync (only a touched file is re-read), deletion on disk deactivates and a
// returning file reactivates with its docid, scrubbing before storage, bounded walks.
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { seeded } from '../../test/memory/secrets.js';
import { type VaultFixture, vaultFixture } from '../../test/vault-fixture.js';
import { VaultInputError, VaultRestrictedPathError } from './errors.js';
import { getDocument } from './get.js';
import { syncVault } from './sync.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
});
afterEach(() => f.close());

const T0 = 1_700_000_000;
const sync = (root = join(f.dir, 'notes'), extra: Partial<Parameters<typeof syncVault>[1]> = {}) =>
  syncVault(f.store, { vault: 'default', contentRoot: root, scrubber: f.scrubber, ...extra });

const search = async (q: string, vault = 'default') => [
  ...new Set(
    (await f.store.vaultIndex.fullText(q, { vault, now: Date.now() }, 10)).map((h) => h.documentId),
  ),
];

describe('restricted paths', () => {
  it('refuses a restricted content root, naming the path', async () => {
    for (const rel of ['home/.ssh', 'home/.aws', 'home/.kube', 'proj/.env', 'my-credentials']) {
      mkdirSync(join(f.dir, rel), { recursive: true });
      const err = await sync(join(f.dir, rel)).catch((e: unknown) => e);
      expect(err, rel).toBeInstanceOf(VaultRestrictedPathError);
      expect((err as Error).message).toContain(join(f.dir, rel));
    }
    await expect(sync('/etc')).rejects.toThrow(/restricted path refused: \/etc/);
    await expect(sync('/root/notes')).rejects.toThrow(/\/root\//);
  });

  it('refuses a root that is a symlink into ~/.ssh (judged after realpath)', async () => {
    f.write('home/.ssh/id_rsa.md', '# key');
    symlinkSync(join(f.dir, 'home/.ssh'), join(f.dir, 'innocent'));
    const err = await sync(join(f.dir, 'innocent')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultRestrictedPathError);
    expect((err as Error).message).toContain(join(f.dir, 'home/.ssh'));
    expect(await f.store.vaultIndex.collections()).toEqual([]);
  });

  it('skips files and folders inside the root that link to restricted places', async () => {
    f.write('home/.ssh/config.md', 'Host secret-box');
    f.write('home/credentials/aws.md', 'creds');
    f.write('notes/ok.md', '# Fine');
    symlinkSync(join(f.dir, 'home/.ssh/config.md'), join(f.dir, 'notes/config.md'));
    symlinkSync(join(f.dir, 'home/credentials'), join(f.dir, 'notes/linked'));
    const report = await sync();
    expect(report.added).toBe(1);
    expect(report.skipped).toEqual([
      { path: 'config.md', reason: 'restricted path (.ssh)' },
      { path: 'linked', reason: 'restricted path (credentials)' },
    ]);
    expect(await search('secret box')).toEqual([]);
  });

  it('refuses a missing root, a file as root and the reserved collection name', async () => {
    await expect(sync(join(f.dir, 'nope'))).rejects.toThrow(/content_root: .* does not exist/);
    f.write('file.md', 'x');
    await expect(sync(join(f.dir, 'file.md'))).rejects.toBeInstanceOf(VaultInputError);
    mkdirSync(join(f.dir, 'notes'));
    await expect(sync(undefined, { collection: '_clawmem' })).rejects.toThrow(/reserved/);
  });
});

describe('incremental sync', () => {
  beforeEach(() => {
    f.write('notes/a.md', '# Alpha\nthe alpha text', T0);
    f.write('notes/sub/b.md', '# Beta\nthe beta text', T0);
    f.write('notes/c.md', '# Gamma\nthe gamma text', T0);
    f.write('notes/ignored.txt', 'not markdown', T0);
  });

  it('re-reads only the touched file, re-parses only the changed one', async () => {
    const first = await sync();
    expect(first).toMatchObject({ added: 3, updated: 0, unchanged: 0, read: 3, deactivated: 0 });
    expect(first.fragments).toBe(6);
    const again = await sync();
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 3, read: 0 });
    f.touch('notes/sub/b.md', T0 + 60);
    const touched = await sync();
    expect(touched).toMatchObject({ added: 0, updated: 0, unchanged: 3, read: 1 });
    f.write('notes/c.md', '# Gamma\nthe delta text now', T0 + 120);
    const changed = await sync();
    expect(changed).toMatchObject({ updated: 1, unchanged: 2, read: 1, fragments: 2 });
    expect(await search('delta')).toHaveLength(1);
    expect(await search('gamma')).toHaveLength(1);
    // After a touch the stored mtime moved: the next sync reads nothing.
    expect((await sync()).read).toBe(0);
  });

  it('a file deleted on disk is deactivated and never served; it reactivates with its docid', async () => {
    await sync();
    const before = await getDocument(f.store, 'default', 'sub/b.md');
    rmSync(join(f.dir, 'notes/sub/b.md'));
    const report = await sync();
    expect(report).toMatchObject({ deactivated: 1, unchanged: 2 });
    await expect(getDocument(f.store, 'default', 'sub/b.md')).rejects.toThrow(
      /not live .*deleted-on-disk/,
    );
    await expect(getDocument(f.store, 'default', `#${before.document.docid}`)).rejects.toThrow(
      /not live/,
    );
    expect(await search('beta')).toEqual([]);
    const [row] = await f.store.vaultIndex.documentsAtPath('default', 'sub/b.md');
    expect(row).toMatchObject({ active: false, deactivationReason: 'deleted-on-disk' });
    // A second sync does not count it again.
    expect((await sync()).deactivated).toBe(0);
    f.write('notes/sub/b.md', '# Beta\nthe beta text', T0);
    const back = await sync();
    expect(back).toMatchObject({ reactivated: 1, unchanged: 3, deactivated: 0 });
    const after = await getDocument(f.store, 'default', 'sub/b.md');
    expect(after.document.docid).toBe(before.document.docid);
    expect(await search('beta')).toEqual([after.document.id]);
  });

  it('stores frontmatter confidence and quality; without them 0.5, and a re-sync keeps them', async () => {
    f.write('notes/rated.md', '---\nconfidence: 0.9\nquality: 0.2\n---\n# Rated\nbody', T0);
    await sync();
    const rows = await f.store.vaultIndex.documentsById(
      'default',
      await search('rated alpha beta gamma'),
    );
    const by = new Map(rows.map((r) => [r.path, [r.confidence, r.qualityScore]]));
    expect(by.get('rated.md')).toEqual([0.9, 0.2]);
    expect(by.size).toBeGreaterThan(1);
    expect([...by.entries()].filter(([p]) => p !== 'rated.md').map(([, v]) => v)).toEqual(
      Array.from({ length: by.size - 1 }, () => [0.5, 0.5]),
    );
    f.write('notes/rated.md', '---\nconfidence: 0.4\n---\n# Rated\nnew body', T0 + 60);
    await sync();
    const [again] = await f.store.vaultIndex.documentsById('default', await search('rated'));
    expect([again?.confidence, again?.qualityScore]).toEqual([0.4, 0.2]);
  });

  it('keeps docids across re-syncs and content changes', async () => {
    await sync();
    const ids = async () =>
      (await f.store.vaultIndex.listDocuments('default')).map((d) => [d.path, d.docid]);
    const first = await ids();
    f.write('notes/a.md', '# Alpha two\nnew', T0 + 5);
    await sync();
    expect(await ids()).toEqual(first);
    expect(first.every(([, d]) => /^[0-9a-f]{6}$/.test(d ?? ''))).toBe(true);
  });

  it('a forgotten document stays forgotten on re-sync', async () => {
    await sync();
    const [a] = await f.store.vaultIndex.documentsAtPath('default', 'a.md');
    await f.store.write((tx) =>
      f.store.vaultIndex.deactivate(tx, 'default', [a?.id ?? 0], 'forgotten', Date.now()),
    );
    f.write('notes/a.md', '# Alpha\nchanged', T0 + 9);
    const report = await sync();
    expect(report.reactivated).toBe(0);
    expect(report.skipped).toEqual([
      { path: 'a.md', reason: 'inactive (forgotten); not re-indexed' },
    ]);
    expect(await search('alpha')).toEqual([]);
  });

  it('a walk stopped by a limit deactivates nothing and says so', async () => {
    await sync();
    const report = await sync(undefined, { limits: { maxFiles: 1 } });
    expect(report).toMatchObject({ truncated: true, deactivated: 0, unchanged: 1 });
    expect(await f.store.vaultIndex.listDocuments('default')).toHaveLength(3);
  });

  it('skips a file over the size cap and deactivates its old document', async () => {
    await sync();
    f.write('notes/c.md', `# Gamma\n${'word '.repeat(100)}`, T0 + 3);
    const report = await sync(undefined, { limits: { maxFileBytes: 100 } });
    expect(report.skipped).toEqual([{ path: 'c.md', reason: 'too large (508 bytes > 100)' }]);
    expect(report.deactivated).toBe(1);
    const [c] = await f.store.vaultIndex.documentsAtPath('default', 'c.md');
    expect(c?.deactivationReason).toBe('skipped-on-sync');
  });

  it('survives a symlink loop and honours the pattern and collection name', async () => {
    symlinkSync(join(f.dir, 'notes'), join(f.dir, 'notes/sub/loop'));
    const report = await sync(undefined, { pattern: 'sub/**/*.md', collection: 'work' });
    expect(report).toMatchObject({ added: 1, collection: 'work' });
    expect(report.skipped).toEqual([{ path: 'sub/loop', reason: 'symlink loop' }]);
    const docs = await f.store.vaultIndex.listDocuments('default');
    expect(docs.map((d) => [d.collection, d.path])).toEqual([['work', 'sub/b.md']]);
  });
});

describe('scrubbing and vaults', () => {
  it('scrubs secrets before they are stored, indexed or served', async () => {
    const token = `ghp_${seeded(7).mixed(36)}`;
    f.write('notes/ci.md', `# CI\nexport GH_TOKEN=${token}\n`);
    const report = await sync();
    expect(report.redacted).toBe(1);
    const doc = await getDocument(f.store, 'default', 'ci.md');
    expect(doc.text).toContain('[REDACTED:github-token]');
    expect(doc.text).not.toContain(token);
    const raw = await f.store.all<{ t: string }>(
      'SELECT content AS t FROM vault_documents UNION ALL SELECT text FROM vault_fragments',
    );
    expect(raw.some((r) => r.t.includes(token))).toBe(false);
  });

  it('two vaults synced from the same folder never see each other', async () => {
    f.write('notes/a.md', '# Shared\nharrier');
    await sync(undefined, { vault: 'one' });
    await sync(undefined, { vault: 'two' });
    const one = await search('harrier', 'one');
    const two = await search('harrier', 'two');
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(1);
    expect(one).not.toEqual(two);
    expect((await getDocument(f.store, 'one', 'a.md')).document.id).toEqual(one[0]);
    rmSync(join(f.dir, 'notes/a.md'));
    await sync(undefined, { vault: 'one' });
    expect(await search('harrier', 'one')).toEqual([]);
    expect(await search('harrier', 'two')).toEqual(two);
  });
});
