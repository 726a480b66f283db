// The LoCoMo memory eval (`npm run eval -- memory [--quick] [--full]`): ingests each
// conversation through the real memory service, asks every category 1–4 question in fts,
// vector and hybrid mode, and writes bench/results/memory-eval.json plus the `memory` eval
// section of docs/benchmarks.md. Reports a missed target; never fails on one.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pino from 'pino';

import { type Core, createCore } from '../../../src/core/index.js';
import { createEmbedder, embedConfigFromEnv, type Embedder } from '../../../src/embed/index.js';
import { SEARCH_MODES } from '../../../src/memory/index.js';
import { machineInfo, RESULTS_DIR, writeEvalSection, writeResult } from '../../lib/report.js';
import {
  type Attempt,
  carryForward,
  FUSION_SPECS,
  measureSpecs,
  memoised,
  OLD_DEFAULT_RRF,
  querySpecs,
  toAttempt,
} from './attempts.js';
import { CHUNK_DESCRIPTIONS, CHUNK_STYLES, type ChunkStyle, FINAL_STYLE } from './chunk.js';
import { type Conversation, loadLocomo } from './data.js';
import { ingest, type Ingested } from './ingest.js';
import { LIMIT, type ModeResult, runMode } from './queries.js';
import { type MemoryEvalReport, renderMemoryEval, TARGET } from './render.js';

const QUICK_CONVERSATIONS = 2;
/** Facts per embedding call while ingesting (the serving default of 16 favours latency). */
const EMBED_BATCH = 64;

const log = (line: string): void =>
  void process.stderr.write(`[eval:memory ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Flags {
  quick: boolean;
  full: boolean;
}

function parseFlags(argv: readonly string[]): Flags {
  const unknown = argv.filter((a) => a !== '--quick' && a !== '--full');
  if (unknown.length > 0) throw new Error(`eval memory: unknown option ${unknown.join(' ')}`);
  return { quick: argv.includes('--quick'), full: argv.includes('--full') };
}

/** The configured embedder (local by default) with a larger model batch for bulk ingest. */
function evalEmbedder(): Embedder | null {
  const config = embedConfigFromEnv();
  if (config.provider === 'local' && config.batchSize === undefined) {
    return createEmbedder({ ...config, batchSize: EMBED_BATCH });
  }
  return createEmbedder(config);
}

async function openCore(dir: string, name: string, embedder: Embedder | null): Promise<Core> {
  return createCore({
    dbPath: join(dir, `${name}.db`),
    logger: pino({ level: 'silent' }),
    embedder,
  });
}

interface StyleRun {
  ingested: Ingested;
  modes: ModeResult[];
  attempts: Attempt[];
  /** The embedder's vector space, or null without one. */
  model: string | null;
}

/** Ingests one chunk style into a fresh database and measures it. */
async function runStyle(
  dir: string,
  style: ChunkStyle,
  conversations: readonly Conversation[],
  embedded: boolean,
): Promise<StyleRun> {
  log(`${style}: ingesting${embedded ? ' and embedding' : ' (full text only)'}…`);
  const core = await openCore(dir, style, embedded ? evalEmbedder() : null);
  try {
    const ingested = await ingest(core, conversations, style, { embedBatchSize: EMBED_BATCH, log });
    const modes: ModeResult[] = [];
    for (const mode of embedded ? SEARCH_MODES : (['fts'] as const)) {
      const r = await runMode(core.memory.search, conversations, ingested.dialogOf, mode);
      log(`  ${style} · ${mode}: R@5 ${r.overall.r5} R@10 ${r.overall.r10} MRR ${r.overall.mrr}`);
      modes.push(r);
    }
    const change = CHUNK_DESCRIPTIONS[style];
    const attempts = modes
      .filter((r) => r.mode !== 'hybrid')
      .map((r) => toAttempt({ stage: 'chunk', change, mode: r.mode }, style, r));
    const hybrid = modes.find((r) => r.mode === 'hybrid');
    if (hybrid !== undefined) {
      const embedder = core.embedder === null ? null : memoised(core.embedder);
      const ctx = { core, style, conversations, dialogOf: ingested.dialogOf, embedder, log };
      const specs = [...FUSION_SPECS, ...(style === FINAL_STYLE ? querySpecs() : [])];
      for (const spec of specs) {
        // The default fusion is what the hybrid mode above just measured.
        if (spec.fusion === undefined && spec.transform === undefined) {
          attempts.push(toAttempt(spec, style, hybrid));
        } else {
          attempts.push(...(await measureSpecs(ctx, [spec])));
        }
      }
    }
    return { ingested, modes, attempts, model: core.embedder?.model ?? null };
  } finally {
    await core.close();
  }
}

function previousAttempts(path: string): Attempt[] {
  if (!existsSync(path)) return [];
  try {
    const prior = JSON.parse(readFileSync(path, 'utf8')) as Partial<MemoryEvalReport>;
    return prior.config?.quick === false ? (prior.attempts ?? []) : [];
  } catch {
    return [];
  }
}

/** Runs the memory eval end to end. */
export async function runMemoryEval(argv: readonly string[] = []): Promise<void> {
  const flags = parseFlags(argv);
  const machine = machineInfo();
  const data = loadLocomo();
  const conversations = flags.quick
    ? data.conversations.slice(0, QUICK_CONVERSATIONS)
    : data.conversations;
  const questions = conversations.reduce((n, c) => n + c.questions.length, 0);
  log(`${conversations.length} conversations, ${questions} questions (categories 1–4)`);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-eval-memory-'));
  try {
    const final = await runStyle(dir, FINAL_STYLE, conversations, true);
    let attempts = [...final.attempts];
    for (const style of CHUNK_STYLES.filter((s) => s !== FINAL_STYLE)) {
      attempts.push(...(await runStyle(dir, style, conversations, flags.full)).attempts);
    }
    const name = flags.quick ? 'memory-eval-quick' : 'memory-eval';
    if (!flags.quick)
      attempts = carryForward(attempts, previousAttempts(join(RESULTS_DIR, `${name}.json`)));
    const report: MemoryEvalReport = {
      eval: 'memory',
      machine,
      config: {
        data: data.path,
        quick: flags.quick,
        full: flags.full,
        conversations: conversations.length,
        questions,
        droppedQuestions: flags.quick ? 0 : data.droppedQuestions,
        chunkStyle: FINAL_STYLE,
        chunkDescription: CHUNK_DESCRIPTIONS[FINAL_STYLE],
        limit: LIMIT,
        embedBatch: EMBED_BATCH,
        embedModel: final.model ?? 'none',
        oldFusion: OLD_DEFAULT_RRF,
      },
      ingest: {
        facts: final.ingested.facts,
        deduplicated: final.ingested.deduplicated,
        saveMs: Math.round(final.ingested.saveMs),
        embedMs: Math.round(final.ingested.embedMs),
        embedded: final.ingested.embedded,
      },
      modes: final.modes,
      attempts,
      target: TARGET,
    };
    const markdown = renderMemoryEval(report);
    const path = writeResult(name, report);
    if (!flags.quick) await writeEvalSection('memory', markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${flags.quick ? ' (quick: docs untouched)' : ' and docs/benchmarks.md'}.\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
