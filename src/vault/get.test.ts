// Document access: get by path, collection/path or docid with line windows and numbers;
// multi_get by glob or list under the byte budget, with truncation reported honestly; globs.
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type VaultFixture, vaultFixture } from '../../test/vault-fixture.js';
import { VaultDocumentNotFoundError, VaultInputError } from './errors.js';
import { getDocument, multiGet } from './get.js';
import { compileGlob } from './glob.js';
import { syncVault } from './sync.js';

let f: VaultFixture;
beforeEach(async () => {
  f = await vaultFixture();
  f.write('notes/a.md', ['# A', 'one', 'two', 'three', 'four'].join('\n'));
  f.write('notes/b.md', `# B\n${'b'.repeat(3000)}`);
  f.write('notes/deep/c.md', `# C\n${'c'.repeat(3000)}\n${'d'.repeat(3000)}`);
  f.write('notes/deep/d.md', `# D\n${'é'.repeat(2000)}`);
  await syncVault(f.store, {
    vault: 'default',
    contentRoot: join(f.dir, 'notes'),
    scrubber: f.scrubber,
  });
});
afterEach(() => f.close());

describe('getDocument', () => {
  it('serves a window of lines, with numbers on request', async () => {
    const all = await getDocument(f.store, 'default', 'a.md');
    expect(all).toMatchObject({ fromLine: 1, toLine: 5, totalLines: 5, truncated: false });
    expect(all.text).toBe('# A\none\ntwo\nthree\nfour');
    expect(all.document).toMatchObject({ title: 'A', path: 'a.md', collection: 'default' });
    const part = await getDocument(f.store, 'default', 'a.md', {
      fromLine: 2,
      maxLines: 2,
      lineNumbers: true,
    });
    expect(part).toMatchObject({ text: '2: one\n3: two', fromLine: 2, toLine: 3, truncated: true });
    const past = await getDocument(f.store, 'default', 'a.md', { fromLine: 9 });
    expect(past).toMatchObject({ text: '', toLine: 8, totalLines: 5 });
  });

  it('finds a document by #docid, bare docid prefix not, collection/path and ./path', async () => {
    const a = await getDocument(f.store, 'default', 'a.md');
    const byId = await getDocument(f.store, 'default', `#${a.document.docid.toUpperCase()}`);
    expect(byId.document.id).toBe(a.document.id);
    expect((await getDocument(f.store, 'default', 'default/deep/c.md')).document.path).toBe(
      'deep/c.md',
    );
    expect((await getDocument(f.store, 'default', './a.md')).document.id).toBe(a.document.id);
    await expect(getDocument(f.store, 'default', a.document.docid)).rejects.toBeInstanceOf(
      VaultDocumentNotFoundError,
    );
    await expect(getDocument(f.store, 'other', 'a.md')).rejects.toThrow(/no document a.md/);
  });

  it('refuses a bad line window naming the field', async () => {
    await expect(getDocument(f.store, 'default', 'a.md', { fromLine: 0 })).rejects.toThrow(
      /fromLine/,
    );
    await expect(getDocument(f.store, 'default', 'a.md', { maxLines: 1.5 })).rejects.toBeInstanceOf(
      VaultInputError,
    );
  });
});

describe('multiGet', () => {
  it('returns every match under the default 10 KiB budget, in path order', async () => {
    const r = await multiGet(f.store, 'default', '**/*.md');
    expect(r.maxBytes).toBe(10_240);
    expect(r.documents.map((d) => [d.document.path, d.cut])).toEqual([
      ['a.md', null],
      ['b.md', null],
      ['deep/c.md', null],
      ['deep/d.md', 'maxBytes'],
    ]);
    // d.md crossed the budget: cut at a whole line, and said so.
    expect(r.documents[3]).toMatchObject({
      text: '# D',
      truncated: true,
      toLine: 1,
      totalLines: 2,
    });
    expect(r).toMatchObject({ omitted: [], truncated: true });
    expect(r.bytes).toBe(r.documents.reduce((n, d) => n + Buffer.byteLength(d.text), 0));
    expect(r.bytes).toBeLessThanOrEqual(10_240);
    // With no room for even a line, the rest is listed as omitted.
    const tight = await multiGet(f.store, 'default', '**/*.md', { maxBytes: 3028 });
    expect(tight.documents.map((d) => d.document.path)).toEqual(['a.md', 'b.md']);
    expect(tight.omitted.map((o) => [o.path, o.reason])).toEqual([
      ['deep/c.md', 'maxBytes'],
      ['deep/d.md', 'maxBytes'],
    ]);
    expect(tight).toMatchObject({ bytes: 3026, truncated: true });
  });

  it('counts bytes, not characters, and reports maxLines cuts', async () => {
    const r = await multiGet(f.store, 'default', 'deep/d.md, a.md, missing.md', {
      maxBytes: 5000,
      maxLines: 2,
    });
    expect(r.documents.map((d) => [d.document.path, d.cut])).toEqual([
      ['deep/d.md', null],
      ['a.md', 'maxLines'],
    ]);
    expect(r.missing).toEqual(['missing.md']);
    expect(r.bytes).toBe(4 + 4000 + '# A\none'.length);
    expect(r.truncated).toBe(true);
    const tight = await multiGet(f.store, 'default', 'deep/d.md', { maxBytes: 3000 });
    expect(tight.documents[0]).toMatchObject({ text: '# D', cut: 'maxBytes', toLine: 1 });
  });

  it('a list within budget is not truncated; a glob can name the collection', async () => {
    const r = await multiGet(f.store, 'default', 'a.md', { lineNumbers: true });
    expect(r).toMatchObject({ truncated: false, omitted: [], missing: [] });
    expect(r.documents[0]?.text.startsWith('1: # A')).toBe(true);
    const g = await multiGet(f.store, 'default', 'default/deep/*.md', { maxBytes: 100_000 });
    expect(g.documents.map((d) => d.document.path)).toEqual(['deep/c.md', 'deep/d.md']);
  });
});

describe('globs', () => {
  it('matches ** across folders, * within one, alternatives and classes', () => {
    const md = compileGlob('**/*.md');
    expect(['a.md', 'x/y/z.md'].every(md)).toBe(true);
    expect(md('a.mdx')).toBe(false);
    expect(compileGlob('*.md')('x/a.md')).toBe(false);
    expect(compileGlob('{notes,docs}/[ab]?.md')('docs/b1.md')).toBe(true);
    expect(compileGlob('[!a]*.md')('a1.md')).toBe(false);
    expect(compileGlob('a+b(c).md')('a+b(c).md')).toBe(true);
    expect(() => compileGlob('{a,b')).toThrow(/unbalanced/);
  });
});
