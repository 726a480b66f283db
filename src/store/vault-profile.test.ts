// The profile's store operations on a real store (SQLite, or PostgreSQL on the postgres
// project): facts of some predicates ranked by evidence with their total, documents by type,
// time and open status (newest first, counted beyond the limit, inactive ones never), and the
// cached profile row replaced in place.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type TempStore, tempStore } from '../../test/store-backends.js';
import { replaceDocumentFacts } from './graph-facts.js';
import type { Store } from './types.js';
import {
  countCurrentTriples,
  profileDocuments,
  profileFacts,
  readVaultProfile,
  writeVaultProfile,
} from './vault-profile.js';

let temp: TempStore;
let store: Store;
beforeEach(async () => {
  temp = await tempStore();
  store = temp.store;
});
afterEach(async () => {
  await temp.close();
});

const NOW = 1_750_000_000_000;
const DAY = 86_400_000;

interface Doc {
  path: string;
  type: string;
  daysAgo: number;
  status?: unknown;
}

/** Documents of the default vault, modified `daysAgo` days before NOW; returns their ids. */
async function docs(list: readonly Doc[]): Promise<number[]> {
  return store.write(async (tx) => {
    const c = await store.vaultIndex.ensureCollection(tx, {
      ...{ vault: 'default', name: 'notes', contentRoot: '/tmp/notes', pattern: '**/*.md' },
      now: NOW,
    });
    const ids: number[] = [];
    for (const d of list) {
      const row = await store.vaultIndex.upsertDocument(tx, {
        ...{ vault: 'default', collectionId: c.id, path: d.path, title: d.path },
        ...{ contentType: d.type, content: d.path, contentHash: d.path, origin: 'fs' },
        frontmatter: d.status === undefined ? {} : { status: d.status },
        ...{ size: 1, mtime: 1, lines: 1, words: 1, authoredAt: null },
        ...{ modifiedAt: NOW - d.daysAgo * DAY, confidence: null, quality: null, now: NOW },
      });
      ids.push(row.id);
    }
    return ids;
  });
}

const fact = (subject: string, predicate: string, object: string) => ({
  ...{ subject, subjectSlug: subject.toLowerCase(), predicate },
  ...{ object, objectSlug: object.toLowerCase(), fact: `${subject} ${predicate} ${object}.` },
});

describe('profile store operations', () => {
  it('ranks current facts of the asked predicates by evidence, then the newest', async () => {
    const graphId = await store.write(async (tx) => {
      const g = await store.graphIndex.ensureGraph(tx, 'vault:default', NOW);
      const uses = fact('team', 'uses', 'pnpm');
      await replaceDocumentFacts(
        tx,
        g,
        'vault-doc:1',
        [uses, fact('we', 'adopted', 'vitest')],
        NOW,
        NOW,
      );
      await replaceDocumentFacts(tx, g, 'vault-doc:2', [uses, fact('x', 'blocks', 'y')], NOW, NOW);
      await replaceDocumentFacts(tx, g, 'vault-doc:3', [fact('a', 'owns', 'b')], NOW + 1, NOW);
      return g;
    });
    const r = await profileFacts(store, graphId, ['uses', 'adopted', 'owns'], 2);
    expect(r.total).toBe(3);
    expect(r.rows.map((f) => [f.subject, f.predicate, f.object, f.evidenceCount])).toEqual([
      ['team', 'uses', 'pnpm', 2],
      ['a', 'owns', 'b', 1],
    ]);
    expect(r.rows[1]?.newestAt).toBe(NOW + 1);
    expect(await countCurrentTriples(store, graphId)).toBe(4);
    expect((await profileFacts(store, graphId, ['replaced'], 5)).total).toBe(0);
  });

  it('lists documents by type, window and open status, newest first, counting past the limit', async () => {
    const [, , , gone] = await docs([
      { path: 'h1.md', type: 'handoff', daysAgo: 1 },
      { path: 's1.md', type: 'session', daysAgo: 3 },
      { path: 'old.md', type: 'session', daysAgo: 40 },
      { path: 'gone.md', type: 'session', daysAgo: 0 },
      { path: 'p1.md', type: 'progress', daysAgo: 50, status: 'In_Progress' },
      { path: 'p2.md', type: 'progress', daysAgo: 2, status: 'closed' },
      { path: 'n1.md', type: 'note', daysAgo: 5, status: ['open'] },
    ]);
    await store.write((tx) =>
      store.vaultIndex.deactivate(tx, 'default', [gone ?? 0], 'deleted', NOW),
    );
    const filter = { vault: 'default', now: NOW, includeInternal: true };
    const activity = ['session', 'handoff', 'progress'];
    const recent = await profileDocuments(store, filter, {
      ...{ types: activity, since: NOW - 14 * DAY, limit: 2 },
    });
    expect(recent.rows.map((d) => d.path)).toEqual(['h1.md', 'p2.md']);
    expect(recent.total).toBe(3);
    expect(recent.rows[1]).toMatchObject({ contentType: 'progress', status: 'closed' });
    const open = await profileDocuments(store, filter, {
      statuses: ['in_progress', 'open'],
      limit: 5,
    });
    expect(open.rows.map((d) => d.path)).toEqual(['p1.md']);
    const all = await profileDocuments(store, filter, { types: activity, limit: 0 });
    expect(all).toEqual({ rows: [], total: 5 });
  });

  it('stores the cached profile once per vault, replacing it', async () => {
    expect(await readVaultProfile(store, 'default')).toBeUndefined();
    const row = { staticFacts: '{}', dynamicContext: '{}', sourceHash: 'a', builtAt: NOW };
    await store.write((tx) => writeVaultProfile(tx, 'default', row));
    await store.write((tx) => writeVaultProfile(tx, 'default', { ...row, sourceHash: 'b' }));
    expect(await readVaultProfile(store, 'default')).toEqual({ ...row, sourceHash: 'b' });
    expect(await readVaultProfile(store, 'other')).toBeUndefined();
  });
});
