// The LoCoMo vault eval (`npm run eval -- vault [--quick]`): each conversation's sessions are
// synced as dated markdown into a vault of its own through a real cairn-vault server (SDK
// client, in-memory transport, a temp database, the local embedding model), then every
// category 1–4 question is asked of search, vsearch, query and memory_retrieve, of the plain
// BM25 baseline and of the query pipeline's stage ablations. Writes bench/results/vault-eval.json
// and the `vault` eval section of docs/benchmarks.md. Reports a missed target; never fails on one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import pino from 'pino';

import { type Core, createCore } from '../../../src/core/index.js';
import { createEmbedder, embedConfigFromEnv, type Embedder } from '../../../src/embed/index.js';
import { createVaultServer } from '../../../src/mcp/index.js';
import { machineInfo, ROOT, writeEvalSection, writeResult } from '../../lib/report.js';
import { LOCOMO_PATH } from '../memory/data.js';
import { climb, describe } from './attempts.js';
import { loadVaultCases, type VaultCase, writeCase } from './data.js';
import {
  ABLATIONS,
  ablationRanker,
  baselineRanker,
  type ModeResult,
  runMode,
  toolRanker,
} from './modes.js';
import { renderVaultEval, type VaultEvalReport } from './render.js';
import { createTuner, MIN_GAIN } from './tune.js';

const QUICK_CONVERSATIONS = 3;
/** Fragments per embedding call while the backlog drains (the serving default favours latency). */
const EMBED_BATCH = 64;
/** How long the eval waits for the fragment backlog before it goes on without some vectors. */
const EMBED_BOUND_MS = 30 * 60_000;
const TOOLS = ['search', 'vsearch', 'query', 'memory_retrieve'] as const;

const log = (line: string): void =>
  void process.stderr.write(`[eval:vault ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/** `--quick`: 3 conversations, no grids; `--attempts`: the ladder alone, logged, nothing written. */
function parseFlags(argv: readonly string[]): { quick: boolean; attemptsOnly: boolean } {
  const unknown = argv.filter((a) => a !== '--quick' && a !== '--attempts');
  if (unknown.length > 0) throw new Error(`eval vault: unknown option ${unknown.join(' ')}`);
  return { quick: argv.includes('--quick'), attemptsOnly: argv.includes('--attempts') };
}

/** The configured embedder (local by default), probed once; null with the reason when it fails. */
async function evalEmbedder(): Promise<{ embedder: Embedder | null; note: string }> {
  const config = embedConfigFromEnv();
  if (config.provider === 'none') return { embedder: null, note: 'CAIRN_EMBEDDINGS=none' };
  const embedder = createEmbedder(
    config.provider === 'local' && config.batchSize === undefined
      ? { ...config, batchSize: EMBED_BATCH }
      : config,
  );
  if (embedder === null) return { embedder: null, note: 'no embedder configured' };
  try {
    await embedder.embed(['probe']);
    return { embedder, note: `${embedder.model}` };
  } catch (err) {
    await embedder.close();
    const why = err instanceof Error ? err.message : String(err);
    return { embedder: null, note: `the embedding model could not load (${why})` };
  }
}

async function linkedClient(core: Core): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createVaultServer(core).connect(serverSide);
  const client = new Client({ name: 'cairn-eval-vault', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Writes each case under `dir` and syncs it into its vault through vault_sync. */
async function syncAll(
  client: Client,
  dir: string,
  cases: readonly VaultCase[],
): Promise<{ ms: number; documents: number; fragments: number }> {
  let documents = 0;
  let fragments = 0;
  const started = performance.now();
  for (const c of cases) {
    const root = join(dir, 'vaults', c.vault);
    writeCase(root, c);
    const r = await client.callTool({
      name: 'vault_sync',
      arguments: { vault: c.vault, content_root: root },
    });
    if (r.isError === true) throw new Error(`vault_sync ${c.vault}: ${JSON.stringify(r.content)}`);
    const data = r.structuredContent as { added?: number; fragments?: number };
    documents += data.added ?? 0;
    fragments += data.fragments ?? 0;
  }
  return { ms: performance.now() - started, documents, fragments };
}

/** Drains the fragment backlog, bounded in time; the fragments embedded and how long it took. */
async function embedAll(core: Core): Promise<{ ms: number; embedded: number; complete: boolean }> {
  const worker = core.vaultEmbedWorker;
  if (worker === null) return { ms: 0, embedded: 0, complete: false };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), EMBED_BOUND_MS);
  });
  const embedded = await Promise.race([worker.drain(), bound]).finally(() => clearTimeout(timer));
  return {
    ms: performance.now() - started,
    embedded: embedded ?? 0,
    complete: embedded !== null,
  };
}

/** Runs the vault eval end to end. */
export async function runVaultEval(argv: readonly string[] = []): Promise<void> {
  const flags = parseFlags(argv);
  const machine = machineInfo();
  const all = loadVaultCases();
  const cases = flags.quick ? all.slice(0, QUICK_CONVERSATIONS) : all;
  const tuneCases = Math.floor(cases.length / 2);
  const questions = cases.reduce((s, c) => s + c.questions.length, 0);
  log(`${cases.length} conversations, ${questions} questions`);
  const { embedder, note } = await evalEmbedder();
  log(embedder === null ? `running WITHOUT vectors: ${note}` : `embedder ${note}`);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-eval-vault-'));
  const core = await createCore({
    dbPath: join(dir, 'vault-eval.db'),
    logger: pino({ level: 'silent' }),
    embedder,
  });
  const client = await linkedClient(core);
  try {
    const sync = await syncAll(client, dir, cases);
    log(
      `synced ${sync.documents} documents, ${sync.fragments} fragments in ${sync.ms.toFixed(0)} ms`,
    );
    const embed = await embedAll(core);
    if (embedder !== null)
      log(`embedded ${embed.embedded} fragments in ${(embed.ms / 1000).toFixed(1)} s`);
    const modes: ModeResult[] = [];
    const measure = async (r: Promise<ModeResult>): Promise<void> => {
      const m = await r;
      const a = m.metrics['all'];
      log(
        `${m.mode}: MRR ${a?.mrr} hit@1 ${a?.hit1} hit@5 ${a?.hit5} p50 ${a?.p50Ms} ms (held-out MRR ${m.split.test.mrr})`,
      );
      modes.push(m);
    };
    if (flags.attemptsOnly) {
      const ladder = await climb(createTuner(core, cases, tuneCases), true, log);
      for (const a of ladder.attempts)
        log(`${a.stage} ${a.change}: tune ${a.tune.mrr} held-out ${a.test.mrr} all ${a.all.mrr}`);
      log(`chosen on the tuning half: ${describe(ladder.chosen)}`);
      return;
    }
    await measure(runMode('bm25 baseline', 'baseline', cases, tuneCases, baselineRanker()));
    for (const tool of TOOLS) {
      if (tool === 'vsearch' && embedder === null) continue;
      await measure(runMode(tool, 'tool', cases, tuneCases, toolRanker(client, tool)));
    }
    for (const a of ABLATIONS) {
      if (a.vectors === false && embedder === null) continue;
      await measure(runMode(a.mode, 'ablation', cases, tuneCases, ablationRanker(core, a)));
    }
    log(flags.quick ? 'attempts: before and product only (quick)' : 'attempts ladder…');
    const ladder = await climb(createTuner(core, cases, tuneCases), !flags.quick, log);
    log(`chosen on the tuning half: ${describe(ladder.chosen)}`);
    const report: VaultEvalReport = {
      eval: 'vault',
      machine,
      config: {
        data: relative(ROOT, LOCOMO_PATH),
        quick: flags.quick,
        conversations: cases.length,
        tuneConversations: tuneCases,
        documents: cases.reduce((s, c) => s + c.docs.length, 0),
        questions,
        embedModel: embedder?.model ?? 'none',
        vectors: embedder === null ? `off: ${note}` : 'on',
      },
      ingest: {
        syncMs: Math.round(sync.ms),
        documents: sync.documents,
        fragments: sync.fragments,
        embedMs: Math.round(embed.ms),
        embedded: embed.embedded,
        embedComplete: embed.complete,
      },
      modes,
      attempts: ladder.attempts,
      chosen: flags.quick ? 'nothing searched (--quick runs no grids)' : describe(ladder.chosen),
      minGain: MIN_GAIN,
    };
    const markdown = renderVaultEval(report);
    const path = writeResult(flags.quick ? 'vault-eval-quick' : 'vault-eval', report);
    if (!flags.quick) await writeEvalSection('vault', markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${flags.quick ? ' (quick: docs untouched)' : ' and docs/benchmarks.md'}.\n`,
    );
  } finally {
    await client.close();
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
