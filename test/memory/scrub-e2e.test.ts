// Secret scrubbing end to end, through memory_save on a real SDK client: every secret of the
// corpus vanishes from the save answer, get, search snippets (every mode), browse, the text
// sent to the embedder and the raw bytes of the SQLite file after a checkpoint; look-alikes
// survive byte for byte. Declined saves leave no trace either.
import { existsSync, readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callErr, callOk } from '../helpers.js';
import {
  browse,
  type Got,
  type HashEmbedder,
  hashEmbedder,
  type Item,
  itemCount,
  type MemorySession,
  memorySession,
  save,
  type Saved,
  search,
} from './fixtures.js';
import { LOOK_ALIKES, type SecretCase, secretCorpus, seeded } from './secrets.js';

const SELF_IDENTIFYING =
  /^(AKIA|ghp_|github_pat_|xox[bp]-|sk-|AIza|npm_|glpat-|hf_|SG\.|lin_api_|sk_live_)/;

/** The database file and its write-ahead log, as bytes, after folding the log back. */
async function dbBytes(s: MemorySession): Promise<Buffer> {
  await s.core.store.checkpoint();
  const parts = [readFileSync(s.core.dbPath)];
  const wal = `${s.core.dbPath}-wal`;
  if (existsSync(wal)) parts.push(readFileSync(wal));
  return Buffer.concat(parts);
}

/** The secret and, for long ones, a slice from its middle: neither may appear. */
function needles(secret: string): string[] {
  if (secret.length < 24) return [secret];
  const mid = Math.floor(secret.length / 2);
  return [secret, secret.slice(mid - 8, mid + 8)];
}

function expectClean(what: string, text: string, corpus: readonly SecretCase[]): void {
  for (const k of corpus) {
    for (const needle of needles(k.secret)) {
      expect(text.includes(needle), `${what} leaks the ${k.kind} secret`).toBe(false);
    }
  }
}

describe('scrubbing end to end through memory_save', () => {
  let s: MemorySession;
  let embedder: HashEmbedder;
  const corpus = secretCorpus();

  beforeEach(async () => {
    embedder = hashEmbedder();
    s = await memorySession({ embedder });
  });
  afterEach(async () => s.close());

  it('the corpus has at least 20 secrets of different kinds and 10 look-alikes', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    expect(new Set(corpus.map((k) => k.kind)).size).toBe(corpus.length);
    expect(new Set(corpus.map((k) => k.secret)).size).toBe(corpus.length);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(10);
    for (const k of corpus) expect(k.text).toContain(k.secret);
  });

  it('no secret survives in answers, reads, embedder input or the database file', async () => {
    const saved: Array<{ k: SecretCase; item: Item; marker: string }> = [];
    for (const [i, k] of corpus.entries()) {
      const marker = `kase${i}q`;
      const args: Record<string, unknown> = {
        title: `Scrub case ${marker}`,
        content: `Reference ${marker}.\n${k.text}`,
        tags: ['scrub', marker],
        scopeTeamId: 'sec',
      };
      // Secrets in the title and tags are scrubbed too (a bare tag only when the token
      // identifies itself by its format).
      if (i % 3 === 1 && k.text.length < 480) args['title'] = `${marker}: ${k.text}`;
      if (i % 3 === 2 && k.secret.length <= 64 && SELF_IDENTIFYING.test(k.secret)) {
        args['tags'] = ['scrub', marker, k.secret];
      }
      const result = await s.client.callTool({ name: 'memory_save', arguments: args });
      expect(result.isError, k.kind).not.toBe(true);
      expectClean(`save answer (${k.kind})`, JSON.stringify(result), corpus);
      const out = result.structuredContent as unknown as Saved;
      const item = out.fact;
      if (item === undefined) throw new Error(`no fact for ${k.kind}`);
      expect(item.content, k.kind).toContain('[REDACTED:');
      expect(item.content, k.kind).toContain(`Reference ${marker}.`);
      saved.push({ k, item, marker });
    }
    // A procedure named with a secret, with secrets in its steps.
    const aws = corpus[0];
    const gh = corpus[2];
    if (aws === undefined || gh === undefined) throw new Error('corpus too small');
    const proc = await callOk<Saved>(s.client, 'memory_save', {
      procedureName: `rotate ${aws.secret}`,
      content: `Steps: ${gh.text}`,
      scopeTeamId: 'sec',
    });
    expectClean('procedure answer', JSON.stringify(proc), corpus);

    await s.core.embedWorker?.drain();
    expectClean('embedder input', JSON.stringify(embedder.calls), corpus);

    for (const { k, item, marker } of saved) {
      const got = await callOk<Got>(s.client, 'memory_get', { id: item.id, scopeTeamId: 'sec' });
      expectClean(`get (${k.kind})`, JSON.stringify(got), corpus);
      for (const mode of ['fts', 'vector', 'hybrid']) {
        const found = await search(s.client, {
          query: marker,
          mode,
          scopeTeamId: 'sec',
          limit: 100,
        });
        expect(
          found.results.map((r) => r.id),
          `${mode} ${k.kind}`,
        ).toContain(item.id);
        expectClean(`${mode} search (${k.kind})`, JSON.stringify(found), corpus);
      }
    }
    // Searching for a secret itself finds nothing that shows it.
    for (const k of corpus) {
      const found = await search(s.client, { query: k.secret, scopeTeamId: 'sec', limit: 100 });
      expectClean(`search for the ${k.kind}`, JSON.stringify(found), corpus);
    }
    const listed = await browse(s.client, { scopeTeamId: 'sec', limit: 200 });
    expect(listed).toHaveLength(corpus.length + 1);
    expectClean('browse', JSON.stringify(listed), corpus);

    const bytes = await dbBytes(s);
    // The probe works: ordinary saved text is in the file.
    expect(bytes.includes(Buffer.from('Reference kase0q.'))).toBe(true);
    for (const k of corpus) {
      for (const needle of needles(k.secret)) {
        expect(bytes.includes(Buffer.from(needle)), `db file leaks the ${k.kind} secret`).toBe(
          false,
        );
      }
    }
  });

  it('look-alikes are stored, returned and searchable byte for byte', async () => {
    const saved: Item[] = [];
    for (const [i, text] of LOOK_ALIKES.entries()) {
      const item = await save(s.client, { title: `alike${i}z`, content: text });
      expect(item.content, text).toBe(text);
      expect(item.title).toBe(`alike${i}z`);
      saved.push(item);
    }
    for (const [i, item] of saved.entries()) {
      const got = await callOk<Got>(s.client, 'memory_get', { id: item.id });
      expect(got.item.content).toBe(LOOK_ALIKES[i]);
      const found = await search(s.client, { query: `alike${i}z` });
      expect(found.results.map((r) => r.id)).toEqual([item.id]);
    }
    const listed = await browse(s.client, { limit: 200 });
    expect(listed.map((x) => x.content).sort()).toEqual([...LOOK_ALIKES].sort());
    const bytes = await dbBytes(s);
    for (const text of LOOK_ALIKES) {
      expect(bytes.includes(Buffer.from(text)), text).toBe(true);
    }
  });

  it('declined saves (nothing but secrets) leave no trace in answers or the file', async () => {
    const r = seeded(99);
    const only = [
      ...corpus.filter((k) => SELF_IDENTIFYING.test(k.secret)).map((k) => k.secret),
      `ghp_${r.mixed(36)}\n\tAKIA${r.str(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
    ];
    expect(only.length).toBeGreaterThanOrEqual(5);
    const witnesses: SecretCase[] = only.map((secret) => ({
      kind: 'declined',
      secret,
      text: secret,
    }));
    for (const content of only) {
      for (const args of [
        { title: 'creds', content, scopeTeamId: 'sec' },
        { procedureName: 'creds', content },
      ]) {
        const err = await callErr(s.client, 'memory_save', args);
        expect(err.text).toMatch(/declined/);
        expectClean('declined answer', err.text, witnesses);
      }
    }
    expect(await itemCount(s.core)).toBe(0);
    expect(await s.core.embedWorker?.pending()).toBe(0);
    const bytes = await dbBytes(s);
    for (const secret of only) {
      for (const needle of needles(secret)) {
        expect(bytes.includes(Buffer.from(needle))).toBe(false);
      }
    }
  });
});
