// The LoCoMo memory eval (`npm run eval -- memory [--quick] [--full]`): ingests each
// conversation through the real memory service, asks every category 1–4 question in fts,
// vector and hybrid mode, and writes bench/results/memory-eval.json plus the `memory` eval
// section of docs/benchmarks.md. Reports a missed target; never fails on one. With
// `--db-url=postgres://…` (or CAIRN_DB_URL) it runs on PostgreSQL instead, one throwaway
// database per chunk style on that server (vectors in pgvector, or exact cosine without it),
// and writes bench/results/memory-eval-postgres.json and a section of its own in
// docs/benchmarks.md.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pino from 'pino';

import { type Core, createCore } from '../../../src/core/index.js';
import { createEmbedder, embedConfigFromEnv, type Embedder } from '../../../src/embed/index.js';
import { SEARCH_MODES } from '../../../src/memory/index.js';
import { createPgDatabase } from '../../lib/pg-database.js';
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
  /** A PostgreSQL server URL to run on (a database per style is created there), or ''. */
  dbUrl: string;
}

const DB_URL = '--db-url=';

function parseFlags(argv: readonly string[]): Flags {
  const unknown = argv.filter((a) => a !== '--quick' && a !== '--full' && !a.startsWith(DB_URL));
  if (unknown.length > 0) throw new Error(`eval memory: unknown option ${unknown.join(' ')}`);
  const dbUrl = argv.find((a) => a.startsWith(DB_URL))?.slice(DB_URL.length);
  return {
    quick: argv.includes('--quick'),
    full: argv.includes('--full'),
    dbUrl: dbUrl ?? process.env['CAIRN_DB_URL'] ?? '',
  };
}

/** The configured embedder (local by default) with a larger model batch for bulk ingest. */
function evalEmbedder(): Embedder | null {
  const config = embedConfigFromEnv();
  if (config.provider === 'local' && config.batchSize === undefined) {
    return createEmbedder({ ...config, batchSize: EMBED_BATCH });
  }
  return createEmbedder(config);
}

/** A core on a fresh database: a file in `dir`, or a new database on the `dbUrl` server. */
async function openCore(
  dir: string,
  name: string,
  embedder: Embedder | null,
  dbUrl: string,
): Promise<{ core: Core; close(): Promise<void> }> {
  const db = dbUrl === '' ? undefined : await createPgDatabase(dbUrl, name);
  const core = await createCore({
    dbPath: join(dir, `${name}.db`),
    dbUrl: db?.url ?? '',
    logger: pino({ level: 'silent' }),
    embedder,
  });
  return {
    core,
    close: async () => {
      await core.close();
      await db?.drop();
    },
  };
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
  dbUrl: string,
): Promise<StyleRun> {
  log(`${style}: ingesting${embedded ? ' and embedding' : ' (full text only)'}…`);
  const opened = await openCore(dir, style, embedded ? evalEmbedder() : null, dbUrl);
  const { core } = opened;
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
    await opened.close();
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

/** The PostgreSQL run's section: its own title and what it measures. */
export function onPg(markdown: string): string {
  return markdown.replace(
    '## Memory retrieval (LoCoMo)',
    '## Memory retrieval on PostgreSQL (LoCoMo)\n\n`npm run eval -- memory --db-url=postgres://…`: the same ' +
      'run on the PostgreSQL backend (a throwaway database per chunk style; vectors in pgvector ' +
      'when the server has it, else exact cosine in the store). Compare its rows with the ' +
      'SQLite table above: the issue asks for the same figures within 0.005.',
  );
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
    const pg = flags.dbUrl !== '';
    const final = await runStyle(dir, FINAL_STYLE, conversations, true, flags.dbUrl);
    let attempts = [...final.attempts];
    for (const style of CHUNK_STYLES.filter((s) => s !== FINAL_STYLE)) {
      const run = await runStyle(dir, style, conversations, flags.full, flags.dbUrl);
      attempts.push(...run.attempts);
    }
    const name = `memory-eval${pg ? '-postgres' : ''}${flags.quick ? '-quick' : ''}`;
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
    const docs = !flags.quick;
    if (docs)
      await writeEvalSection(pg ? 'memory-postgres' : 'memory', pg ? onPg(markdown) : markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${docs ? ' and docs/benchmarks.md' : ' (docs untouched)'}.\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
