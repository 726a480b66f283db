// The memory service without a transport: what gets scrubbed (content, title, tags, procedure
// name), the dedupe hash, refusals as typed errors, the onSaved hook, and scoped get.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { DomainError, InvalidInputError, NotFoundError } from '../shared/errors.js';
import { openSqliteStore, type Store } from '../store/index.js';
import { contentHash, createMemory, type Memory } from './memory.js';
import type { MemoryScrubber } from './model.js';

/** Redacts the word SECRET-<n>; "only sentinels" when nothing else but punctuation remains. */
const wordScrubber: MemoryScrubber = {
  scrub(text) {
    const out = text.replace(/SECRET-\d+/g, '[REDACTED:test]');
    const rest = out.replace(/\[REDACTED:test\]/g, '').replace(/[\s\p{P}]/gu, '');
    return Promise.resolve({
      text: out,
      onlySentinels: out !== text && rest === '',
      findings: [],
    });
  },
};

describe('contentHash', () => {
  it('normalises whitespace only', () => {
    const base = contentHash('deploy on Tuesdays');
    expect(contentHash('  deploy\ton\n\nTuesdays ')).toBe(base);
    expect(contentHash('Deploy on Tuesdays')).not.toBe(base);
    expect(contentHash('deploy on Tuesdays.')).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('createMemory', () => {
  let dir: string;
  let store: Store;
  let memory: Memory;
  let saves: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-memory-unit-'));
    store = await openSqliteStore(join(dir, 'cairn.db'));
    saves = 0;
    memory = createMemory(store, { scrubber: wordScrubber, onSaved: () => saves++ });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rawRows = () =>
    store.all<{ title: string; content: string; tags: string; name: string | null }>(
      'SELECT title, content, tags, name FROM memory_items ORDER BY rowid',
    );

  it('scrubs content, title, tags and the procedure name before storing anything', async () => {
    await memory.save({
      title: 'uses SECRET-1',
      content: 'the key is SECRET-2 here',
      tags: ['SECRET-3', 'ok'],
      scope: {},
    });
    await memory.save({
      procedureName: 'rotate SECRET-4',
      content: 'step with SECRET-5',
      scope: {},
    });
    const rows = await rawRows();
    expect(JSON.stringify(rows)).not.toMatch(/SECRET-\d/);
    expect(rows[0]).toEqual({
      title: 'uses [REDACTED:test]',
      content: 'the key is [REDACTED:test] here',
      tags: JSON.stringify(['[REDACTED:test]', 'ok']),
      name: null,
    });
    expect(rows[1]).toMatchObject({
      title: 'rotate [REDACTED:test]',
      name: 'rotate [REDACTED:test]',
    });
  });

  it('versions a procedure under its scrubbed name', async () => {
    const v1 = await memory.save({ procedureName: 'p SECRET-1', content: 'one', scope: {} });
    const v2 = await memory.save({ procedureName: 'p SECRET-2', content: 'two', scope: {} });
    expect(v1.saved === 'procedure' && v1.procedure.version).toBe(1);
    expect(v2.saved === 'procedure' && v2.procedure.version).toBe(2);
  });

  it('declines secret-only content with a DomainError and writes nothing', async () => {
    const err = await memory
      .save({ title: 't', content: ' SECRET-1 ; SECRET-2 ', scope: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).not.toBeInstanceOf(InvalidInputError);
    expect((err as Error).message).toMatch(/declined/);
    expect((err as Error).message).not.toMatch(/SECRET-\d/);
    expect(await rawRows()).toEqual([]);
    expect(saves).toBe(0);
  });

  it('a fact without a title is an InvalidInputError on field title', async () => {
    for (const title of [undefined, '', '   ']) {
      const err = await memory.save({ title, content: 'body', scope: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidInputError);
      expect((err as InvalidInputError).field).toBe('title');
    }
    expect(await rawRows()).toEqual([]);
  });

  it('calls onSaved for new items only, not for deduplicated ones', async () => {
    await memory.save({ title: 'a', content: 'same body', scope: { teamId: 't1' } });
    await memory.save({ title: 'b', content: ' same  body ', scope: { teamId: 't1' } });
    expect(saves).toBe(1);
    await memory.save({ title: 'a', content: 'same body', scope: { teamId: 't2' } });
    await memory.save({ procedureName: 'p', content: 'x', scope: {} });
    await memory.save({ procedureName: 'p', content: 'x', scope: {} });
    expect(saves).toBe(3);
  });

  it('get is scoped: another team or agent gets NotFoundError', async () => {
    const saved = await memory.save({
      title: 'private',
      content: 'agent private note',
      scope: { teamId: 't1', agentId: 'a1' },
    });
    const id = saved.saved === 'fact' ? saved.fact.id : '';
    expect((await memory.get(id, { teamId: 't1', agentId: 'a1' })).item.id).toBe(id);
    for (const scope of [
      {},
      { teamId: 't1' },
      { teamId: 't1', agentId: 'a2' },
      { teamId: 't2', agentId: 'a1' },
    ]) {
      await expect(memory.get(id, scope), JSON.stringify(scope)).rejects.toBeInstanceOf(
        NotFoundError,
      );
    }
  });
});
