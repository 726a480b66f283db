// The vault's store operations on a real store (SQLite, or PostgreSQL on the postgres project):
// migration 24 on a SQLite database at the previous head, BM25 over fragments (title and
// heading above body, terms ORed, the filter's collections, lifecycle and vault isolation),
// cosine over fragment vectors, docids, timeline.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { sqliteBefore } from '../../test/sqlite-before.js';
import { type TempStore, tempStore } from '../../test/store-backends.js';
import { openSqliteStore } from './sqlite.js';
import type { Queryable, Store } from './types.js';
import { docidDigest } from './vault-documents.js';
import { INTERNAL_COLLECTION, type VaultFilter, type VaultFragmentInput } from './vault-types.js';

let dir: string;
let temp: TempStore;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-vault-store-'));
  temp = await tempStore();
  store = temp.store;
});
afterEach(async () => {
  await temp.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW = 1_750_000_000_000;

async function collection(tx: Queryable, vault: string, name: string): Promise<number> {
  const c = await store.vaultIndex.ensureCollection(tx, {
    vault,
    name,
    contentRoot: name === INTERNAL_COLLECTION ? '' : `/tmp/${name}`,
    pattern: '**/*.md',
    now: NOW,
  });
  return c.id;
}

interface DocSpec {
  vault?: string;
  collection?: string;
  path: string;
  title?: string;
  fragments?: readonly Partial<VaultFragmentInput>[];
  modifiedAt?: number;
  authoredAt?: number | null;
}

async function addDoc(spec: DocSpec): Promise<{ id: number; docid: string }> {
  const vault = spec.vault ?? 'default';
  return store.write(async (tx) => {
    const collectionId = await collection(tx, vault, spec.collection ?? vault);
    const frags = (spec.fragments ?? [{ text: 'plain body' }]).map((f, i) => ({
      ordinal: i,
      kind: f.kind ?? 'paragraph',
      headingPath: f.headingPath ?? '',
      startLine: i + 1,
      endLine: i + 1,
      text: f.text ?? '',
    }));
    const doc = await store.vaultIndex.upsertDocument(tx, {
      vault,
      collectionId,
      path: spec.path,
      title: spec.title ?? spec.path,
      contentType: 'note',
      frontmatter: {},
      content: frags.map((f) => f.text).join('\n'),
      contentHash: 'h',
      size: 1,
      mtime: 1,
      lines: frags.length,
      words: 2,
      modifiedAt: spec.modifiedAt ?? NOW,
      authoredAt: spec.authoredAt ?? null,
      confidence: null,
      quality: null,
      origin: 'fs',
      now: NOW,
    });
    await store.vaultIndex.replaceFragments(tx, doc.id, frags);
    return doc;
  });
}

const filter = (over: Partial<VaultFilter> = {}): VaultFilter => ({
  vault: 'default',
  now: NOW,
  ...over,
});

const docsOf = (hits: readonly { documentId: number }[]): number[] => [
  ...new Set(hits.map((h) => h.documentId)),
];

// SQLite only: it builds a database at the previous head with SQLite's own migrations (an
// empty PostgreSQL database gets the whole schema at once, pg/pg-ddl.ts).
describe('migration 24', () => {
  it('applies on a database at the previous head and keeps its rows', async () => {
    const path = join(dir, 'old.db');
    const db = sqliteBefore(path, 24);
    db.prepare(
      "INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES ('t1', 'x', 'todo', 1, 1)",
    ).run();
    db.close();
    const old = await openSqliteStore(path);
    try {
      const versions = await old.all<{ version: number }>(
        'SELECT version FROM schema_migrations WHERE version = 24',
      );
      expect(versions).toHaveLength(1);
      expect(await old.get('SELECT id FROM tasks')).toEqual({ id: 't1' });
      expect(await old.vaultIndex.collections()).toEqual([]);
    } finally {
      await old.close();
    }
  });
});

describe('vault full text', () => {
  it('ranks a title match and a heading match above a body match, with raw positive BM25', async () => {
    const body = await addDoc({
      path: 'b.md',
      title: 'Notes',
      fragments: [{ text: 'the heron flew' }],
    });
    const head = await addDoc({
      path: 'h.md',
      title: 'Birds',
      fragments: [{ headingPath: 'Heron', text: 'it flew' }],
    });
    const title = await addDoc({ path: 't.md', title: 'Heron', fragments: [{ text: 'it flew' }] });
    const hits = await store.vaultIndex.fullText('heron', filter(), 10);
    expect(docsOf(hits)).toEqual([title.id, head.id, body.id]);
    for (const h of hits) expect(h.bm25).toBeGreaterThan(0);
    expect(hits[0]?.bm25).toBeGreaterThan(hits[2]?.bm25 ?? Infinity);
  });

  it('ORs the terms: a natural question finds a document holding only some of its words', async () => {
    const d = await addDoc({
      path: 'a.md',
      fragments: [{ text: 'the migration plan for sqlite' }],
    });
    const hits = await store.vaultIndex.fullText(
      'what was our plan for the database migration?',
      filter(),
      5,
    );
    expect(docsOf(hits)).toEqual([d.id]);
  });

  it('excludes the internal collection by default; includeInternal or naming it opts in', async () => {
    const user = await addDoc({ path: 'u.md', fragments: [{ text: 'kestrel' }] });
    const sys = await addDoc({
      collection: INTERNAL_COLLECTION,
      path: 'observations/o.md',
      fragments: [{ text: 'kestrel' }],
    });
    const ix = store.vaultIndex;
    expect(docsOf(await ix.fullText('kestrel', filter(), 10))).toEqual([user.id]);
    expect(
      docsOf(await ix.fullText('kestrel', filter({ includeInternal: true }), 10)).sort(),
    ).toEqual([user.id, sys.id].sort());
    expect(
      docsOf(await ix.fullText('kestrel', filter({ collections: [INTERNAL_COLLECTION] }), 10)),
    ).toEqual([sys.id]);
    expect(docsOf(await ix.fullText('kestrel', filter({ collections: ['default'] }), 10))).toEqual([
      user.id,
    ]);
  });

  it('two vaults never see each other’s documents', async () => {
    const a = await addDoc({ vault: 'a', path: 'same.md', fragments: [{ text: 'plover' }] });
    const b = await addDoc({ vault: 'b', path: 'same.md', fragments: [{ text: 'plover' }] });
    const ix = store.vaultIndex;
    expect(
      docsOf(await ix.fullText('plover', filter({ vault: 'a', includeInternal: true }), 10)),
    ).toEqual([a.id]);
    expect(docsOf(await ix.fullText('plover', filter({ vault: 'b' }), 10))).toEqual([b.id]);
    expect(
      docsOf(await ix.fullText('plover', filter({ vault: 'a', collections: ['b'] }), 10)),
    ).toEqual([]);
    expect((await ix.documentsAtPath('a', 'same.md')).map((d) => d.id)).toEqual([a.id]);
    expect(await ix.documentByDocid('a', b.docid)).toBeUndefined();
    expect((await ix.documentsById('a', [a.id, b.id])).map((d) => d.id)).toEqual([a.id]);
    expect((await ix.listDocuments('b')).map((d) => d.id)).toEqual([b.id]);
  });

  it('hides deactivated, archived and snoozed documents unless the filter asks', async () => {
    const d = await addDoc({ path: 'x.md', fragments: [{ text: 'avocet' }] });
    const ix = store.vaultIndex;
    await store.write((tx) => ix.setSnoozed(tx, 'default', [d.id], NOW + 1000));
    expect(await ix.fullText('avocet', filter(), 5)).toEqual([]);
    expect(docsOf(await ix.fullText('avocet', filter({ includeSnoozed: true }), 5))).toEqual([
      d.id,
    ]);
    expect(docsOf(await ix.fullText('avocet', filter({ now: NOW + 1000 }), 5))).toEqual([d.id]);
    await store.write((tx) => ix.setSnoozed(tx, 'default', [d.id], null));
    await store.write((tx) => ix.archive(tx, 'default', [d.id], NOW));
    expect(await ix.fullText('avocet', filter(), 5)).toEqual([]);
    expect(docsOf(await ix.fullText('avocet', filter({ onlyArchived: true }), 5))).toEqual([d.id]);
    await store.write((tx) => ix.restore(tx, 'default', [d.id]));
    await store.write((tx) => ix.deactivate(tx, 'default', [d.id], 'forgotten', NOW));
    expect(await ix.fullText('avocet', filter({ includeArchived: true }), 5)).toEqual([]);
    const [row] = await ix.documentsAtPath('default', 'x.md');
    expect(row).toMatchObject({
      active: false,
      deactivationReason: 'forgotten',
      deactivatedAt: NOW,
    });
    await store.write((tx) => ix.reactivate(tx, 'default', [d.id]));
    expect(docsOf(await ix.fullText('avocet', filter(), 5))).toEqual([d.id]);
    expect(await ix.pendingPostings()).toBe(0);
  });

  it('replacing fragments re-indexes the document: old words stop matching', async () => {
    const d = await addDoc({ path: 'r.md', fragments: [{ text: 'godwit' }] });
    await store.write((tx) =>
      store.vaultIndex.replaceFragments(tx, d.id, [
        { ordinal: 0, kind: 'whole', headingPath: '', startLine: 1, endLine: 1, text: 'curlew' },
      ]),
    );
    expect(await store.vaultIndex.fullText('godwit', filter(), 5)).toEqual([]);
    expect(docsOf(await store.vaultIndex.fullText('curlew', filter(), 5))).toEqual([d.id]);
  });
});

describe('vault postings', () => {
  it('a title change re-indexes every fragment of the document', async () => {
    const d = await addDoc({
      path: 'p.md',
      title: 'Ruff',
      fragments: [{ text: 'a' }, { text: 'b' }],
    });
    await store.write((tx) =>
      tx.run("UPDATE vault_documents SET title = 'Knot' WHERE id = ?", [d.id]),
    );
    expect(await store.vaultIndex.fullText('ruff', filter(), 5)).toEqual([]);
    expect(await store.vaultIndex.fullText('knot', filter(), 5)).toHaveLength(2);
  });

  it('fragments written past the store are counted, then drained in the background', async () => {
    const d = await addDoc({ path: 'q.md', fragments: [{ text: 'first' }] });
    await store.run(
      `INSERT INTO vault_fragments(document_id, ordinal, kind, heading_path, start_line, end_line, text)
       VALUES (?, 9, 'paragraph', '', 1, 1, 'stint')`,
      [d.id],
    );
    expect(await store.vaultIndex.pendingPostings()).toBe(1);
    // A search ranks what is indexed and starts the drain.
    expect(await store.vaultIndex.fullText('stint', filter(), 5)).toEqual([]);
    await expect.poll(() => store.vaultIndex.pendingPostings()).toBe(0);
    expect(docsOf(await store.vaultIndex.fullText('stint', filter(), 5))).toEqual([d.id]);
  });
});

describe('vault documents', () => {
  it('keeps a docid across re-upserts and extends it on a collision', async () => {
    const first = await addDoc({ path: 'k.md' });
    expect(first.docid).toMatch(/^[0-9a-f]{6}$/);
    const again = await addDoc({ path: 'k.md', title: 'changed' });
    expect(again).toEqual({ ...first, created: false });
    // A path whose digest starts like an existing docid gets a longer one.
    const digest = docidDigest('default', 'default', 'other.md');
    await store.run('UPDATE vault_documents SET docid = ? WHERE id = ?', [
      digest.slice(0, 6),
      first.id,
    ]);
    const third = await addDoc({ path: 'other.md' });
    expect(third.docid).toHaveLength(7);
    expect(third.docid).toBe(digest.slice(0, 7));
    expect((await store.vaultIndex.documentByDocid('default', `#${third.docid}`))?.path).toBe(
      'other.md',
    );
  });

  it('timeline lists active neighbours by effective time (authored, else modified)', async () => {
    const a = await addDoc({ path: 'a.md', modifiedAt: NOW - 3000 });
    const b = await addDoc({ path: 'b.md', modifiedAt: NOW, authoredAt: NOW - 2000 });
    const c = await addDoc({ path: 'c.md', modifiedAt: NOW - 1000 });
    const d = await addDoc({ collection: 'other', path: 'd.md', modifiedAt: NOW - 500 });
    const gone = await addDoc({ path: 'e.md', modifiedAt: NOW - 1500 });
    await store.write((tx) =>
      store.vaultIndex.deactivate(tx, 'default', [gone.id], 'deleted-on-disk', NOW),
    );
    const t = await store.vaultIndex.timeline('default', b.id, { before: 5, after: 5 });
    expect(t?.before.map((x) => x.id)).toEqual([a.id]);
    expect(t?.after.map((x) => x.id)).toEqual([c.id, d.id]);
    const same = await store.vaultIndex.timeline('default', b.id, {
      before: 5,
      after: 5,
      sameCollection: true,
    });
    expect(same?.after.map((x) => x.id)).toEqual([c.id]);
    expect(
      await store.vaultIndex.timeline('other-vault', b.id, { before: 1, after: 1 }),
    ).toBeUndefined();
  });

  it('stats count documents, lifecycle states, types and reasons per collection', async () => {
    const a = await addDoc({ path: 'a.md' });
    const b = await addDoc({ path: 'b.md' });
    await addDoc({ collection: INTERNAL_COLLECTION, path: 'handoffs/h.md' });
    const ix = store.vaultIndex;
    await store.write(async (tx) => {
      await ix.setPinned(tx, 'default', [a.id], true);
      await ix.deactivate(tx, 'default', [b.id], 'deleted-on-disk', NOW);
      await ix.recordAccess(tx, 'default', [a.id], NOW);
    });
    const stats = await ix.stats('default', { now: NOW });
    expect(stats.map((s) => s.collection)).toEqual([INTERNAL_COLLECTION, 'default']);
    expect(stats[1]).toMatchObject({
      documents: 2,
      active: 1,
      inactive: 1,
      pinned: 1,
      fragments: 1,
      contentTypes: { note: 1 },
      deactivationReasons: { 'deleted-on-disk': 1 },
    });
    expect((await ix.documentsById('default', [a.id]))[0]?.accessCount).toBe(1);
  });
});

describe('vault vectors', () => {
  const unit = (x: number, y: number): Float32Array => {
    const n = Math.hypot(x, y);
    return new Float32Array([x / n, y / n]);
  };

  it('ranks by cosine within the filter and counts the backlog of active fragments', async () => {
    const near = await addDoc({ path: 'n.md' });
    const far = await addDoc({ path: 'f.md' });
    const sys = await addDoc({ collection: INTERNAL_COLLECTION, path: 'o.md' });
    await addDoc({ vault: 'b', path: 'n.md' });
    const ix = store.vaultIndex;
    expect(await ix.pendingVectors('m')).toBe(4);
    const frag = async (id: number) => (await ix.fragmentsOf(id))[0]?.id ?? 0;
    const todo = await ix.fragmentsToEmbed('m', 0, 10);
    expect(todo).toHaveLength(4);
    expect(todo[0]).toMatchObject({ title: 'n.md', text: 'plain body' });
    await store.write((tx) =>
      ix.putVectors(tx, 'm', [
        { fragmentId: todo[0]?.id ?? 0, vector: unit(1, 0.1) },
        { fragmentId: todo[1]?.id ?? 0, vector: unit(0, 1) },
        { fragmentId: todo[2]?.id ?? 0, vector: unit(1, 0) },
        { fragmentId: todo[3]?.id ?? 0, vector: unit(1, 0) },
      ]),
    );
    expect(await ix.pendingVectors('m')).toBe(0);
    expect(await ix.pendingVectors('other-model', 'b')).toBe(1);
    const hits = await ix.nearest('m', unit(1, 0), filter(), 5);
    expect(hits.map((h) => h.documentId)).toEqual([near.id, far.id]);
    expect(hits[0]?.cosine).toBeCloseTo(Math.cos(Math.atan(0.1)), 5);
    expect(hits[0]?.fragmentId).toBe(await frag(near.id));
    const internal = await ix.nearest('m', unit(1, 0), filter({ includeInternal: true }), 1);
    expect(internal.map((h) => h.documentId)).toEqual([sys.id]);
    // A changed fragment loses its vector and waits again.
    await store.run("UPDATE vault_fragments SET text = 'changed' WHERE document_id = ?", [near.id]);
    expect(await ix.pendingVectors('m', 'default')).toBe(1);
  });
});
