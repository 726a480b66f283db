// The optional fact extraction model (CAIRN_VAULT_EXTRACTION) against a stand-in
// OpenAI-compatible server on loopback: a sync writes the deterministic facts at once; the
// background backlog then asks the model per document and replaces them with its validated
// triples (invalid ones dropped and counted), or keeps them on a non-JSON answer or a timeout,
// with `status` saying pending, done, failed and why. Through a real SDK client and store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { KgAnswer, RemoteStage, VaultStatus } from '../../src/vault/index.js';
import { tempDir, type TempDir } from '../helpers.js';
import { callVault, vaultSetup, type VaultSetup, writeNotes } from './fixtures.js';
import {
  type Answer,
  loopback,
  type Loopback,
  ollamaChat,
  openAiChat,
  type Seen,
} from './loopback.js';

const BILLING = 'The platform team owns the billing service.';
const MOVED = 'We moved the billing service onto Kubernetes last year.';
const NOTE = `---\ntitle: Billing\n---\n# Billing\n\n${BILLING} ${MOVED}\n`;

let server: Loopback;
let s: VaultSetup;
let root: TempDir;
let reply: (seen: Seen) => Answer;

const stage = (timeoutMs = 2000): RemoteStage => ({
  kind: 'openai',
  url: `${server.url}/v1`,
  model: 'stand-in',
  apiKey: 'sk-test',
  timeoutMs,
});

async function setup(timeoutMs?: number, autoEmbed = false, over?: RemoteStage): Promise<void> {
  s = await vaultSetup({ vaultExtraction: over ?? stage(timeoutMs), autoEmbed });
  writeNotes(root.path, { 'billing.md': NOTE });
  await s.sync('default', root.path);
}

beforeEach(async () => {
  reply = () => ({ status: 500 });
  server = await loopback((seen) => reply(seen));
  root = tempDir('cairn-extract-notes-');
});
afterEach(async () => {
  await s.close();
  await server.close();
  root.cleanup();
});

const facts = async (entity: string): Promise<string[]> => {
  const r = await callVault<KgAnswer>(s.client, 'kg_query', { entity });
  return r.data.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`);
};
const status = async () => (await callVault<VaultStatus>(s.client, 'status', {})).data;
const worker = () => {
  const w = s.core.vaultExtractWorker;
  if (w === null) throw new Error('no extraction worker');
  return w;
};
const triples = (list: unknown[]): Answer => openAiChat(JSON.stringify({ triples: list }));
const uses = {
  subject: 'billing service',
  predicate: 'uses',
  object: 'Kubernetes',
  sentence: MOVED,
};
const owns = {
  subject: 'platform team',
  predicate: 'owns',
  object: 'billing service',
  sentence: BILLING,
};

describe('model fact extraction', () => {
  it('replaces the deterministic facts with the model’s validated triples, off the sync', async () => {
    reply = () => triples([owns, uses]);
    await setup();
    // The sync itself called no model: deterministic facts, one document pending.
    expect(server.seen).toHaveLength(0);
    expect(await facts('billing service')).toEqual(['platform team owns billing service']);
    expect((await status()).extraction).toMatchObject({
      extractor: 'openai:stand-in',
      pending: 1,
      done: 0,
      failed: 0,
    });
    expect(await worker().drain()).toBe(1);
    expect(await facts('billing service')).toEqual([
      'platform team owns billing service',
      'billing service uses Kubernetes',
    ]);
    const after = await status();
    expect(after.extraction).toEqual({
      extractor: 'openai:stand-in',
      pending: 0,
      done: 1,
      failed: 0,
      dropped: 0,
      reasons: [],
    });
    const [call] = server.seen;
    expect(call?.path).toBe('/v1/chat/completions');
    expect(call?.authorization).toBe('Bearer sk-test');
    const messages = call?.body['messages'] as { role: string; content: string }[];
    expect(messages[0]?.content).toContain('depends_on');
    expect(messages[1]?.content).toContain(MOVED);
    expect(messages[1]?.content).not.toContain('title: Billing');
    // Unchanged content is not asked again.
    expect(await worker().drain()).toBe(0);
    expect(server.seen).toHaveLength(1);
  });

  it('drops and counts invalid triples, keeping the valid ones', async () => {
    reply = () =>
      triples([
        uses,
        { ...owns, predicate: 'likes' },
        { ...owns, sentence: 'The platform team owns payroll.' },
        { ...owns, subject: '' },
        { ...owns, object: 'Platform Team' },
        'billing uses kubernetes',
      ]);
    await setup();
    await worker().drain();
    expect(await facts('billing service')).toEqual(['billing service uses Kubernetes']);
    expect((await status()).extraction).toMatchObject({ done: 1, failed: 0, dropped: 5 });
  });

  it('keeps the deterministic facts when the answer holds no JSON, and says why', async () => {
    reply = () => openAiChat('Sorry, I cannot help with that.');
    await setup();
    await worker().drain();
    expect(await facts('billing service')).toEqual(['platform team owns billing service']);
    // Retried on later passes, then given up: bounded calls.
    expect(server.seen).toHaveLength(3);
    const st = await status();
    expect(st.extraction).toMatchObject({
      pending: 0,
      done: 0,
      failed: 1,
      reasons: [{ reason: 'malformed answer: no JSON in the model output', documents: 1 }],
    });
    expect(st.notes.join('\n')).toMatch(
      /1 document\(s\) keep their deterministic facts: extraction by openai:stand-in failed \(malformed answer: no JSON in the model output ×1\)/,
    );
  });

  it('keeps the deterministic facts when every proposed triple is invalid', async () => {
    reply = () => triples([{ ...owns, predicate: 'likes' }]);
    await setup();
    await worker().drain();
    expect(await facts('billing service')).toEqual(['platform team owns billing service']);
    expect((await status()).extraction?.reasons).toEqual([
      { reason: 'all 1 proposed triples failed validation', documents: 1 },
    ]);
  });

  it('keeps the deterministic facts when the model times out', async () => {
    reply = () => 'hang';
    await setup(200);
    await worker().drain();
    expect(await facts('billing service')).toEqual(['platform team owns billing service']);
    expect((await status()).extraction).toMatchObject({
      failed: 1,
      reasons: [{ reason: 'timed out after 200 ms', documents: 1 }],
    });
  });

  it('a changed document gets deterministic facts at once and waits for the model again', async () => {
    reply = () => triples([owns, uses]);
    await setup();
    await worker().drain();
    writeNotes(root.path, {
      'billing.md': `# Billing\n\nThe finance team owns the billing service.\n`,
    });
    await s.sync('default', root.path);
    expect(await facts('billing service')).toEqual(['finance team owns billing service']);
    expect((await status()).extraction).toMatchObject({ pending: 1, done: 0 });
    reply = () => triples([]);
    await worker().drain();
    // The model found nothing: the document states no fact now.
    expect(await facts('billing service')).toEqual([]);
    expect((await status()).extraction).toMatchObject({ pending: 0, done: 1 });
  });

  it('a serving core wakes the backlog after a sync; the call still returns first', async () => {
    reply = () => triples([owns, uses]);
    await setup(undefined, true);
    await expect.poll(() => worker().pending(), { timeout: 20_000 }).toBe(0);
    expect(await facts('billing service')).toContain('billing service uses Kubernetes');
  });

  it('speaks Ollama’s /api/chat with format json', async () => {
    reply = (seen) =>
      seen.path === '/api/chat' ? ollamaChat(JSON.stringify({ triples: [uses] })) : { status: 404 };
    await setup(undefined, false, {
      kind: 'ollama',
      url: server.url,
      model: 'llama',
      timeoutMs: 2000,
    });
    await worker().drain();
    expect(server.seen[0]?.body).toMatchObject({ model: 'llama', format: 'json', stream: false });
    expect(await facts('billing service')).toEqual(['billing service uses Kubernetes']);
    expect((await status()).extraction).toMatchObject({ extractor: 'ollama:llama', done: 1 });
  });
});
