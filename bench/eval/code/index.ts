// The CoSQA code-search eval (`npm run eval -- code [--quick] [--no-cache]`): stores the corpus
// in a real Cairn store through chunkFile, ranks every query in fts, vector and hybrid mode,
// climbs the attempts ladder, and writes bench/results/code-eval.json plus the `code` eval
// section of docs/benchmarks.md. Reports a missed target; never fails on one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_CODE_EMBED_TEXT } from '../../../src/code/index.js';
import { createEmbedder, embedConfigFromEnv, type Embedder } from '../../../src/embed/index.js';
import {
  CODE_BM25,
  CODE_FIELD_WEIGHTS,
  CODE_FUSION,
  CODE_RERANK,
  codeTokenizer,
} from '../../../src/search/index.js';
import { openSqliteStore } from '../../../src/store/index.js';
import { machineInfo, writeEvalSection, writeResult } from '../../lib/report.js';
import { type StoredCorpus, storeCorpus } from './corpus.js';
import { type Cosqa, loadCosqa } from './data.js';
import { rerankFields } from './fuse.js';
import { CODE_MODES, type ModeResult, runMode, vectorQueryText } from './modes.js';
import { type CodeEvalReport, renderCodeEval, TARGET } from './render.js';
import { TUNE_QUERIES } from './score.js';
import { inMemorySearch, openCodeSearch } from './search.js';
import { ftsAttempts } from './sweep-fts.js';
import { rerankAttempts } from './sweep-rerank.js';
import { vectorAttempts } from './sweep-vector.js';
import { embedAll, type Embedded } from './vectors.js';

const EMBED_BATCH = 64;

const log = (line: string): void =>
  void process.stderr.write(`[eval:code ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

interface Flags {
  quick: boolean;
  cache: boolean;
}

function parseFlags(argv: readonly string[]): Flags {
  const known = ['--quick', '--no-cache'];
  const unknown = argv.filter((a) => !known.includes(a));
  if (unknown.length > 0) throw new Error(`eval code: unknown option ${unknown.join(' ')}`);
  return { quick: argv.includes('--quick'), cache: !argv.includes('--no-cache') };
}

function evalEmbedder(): Embedder | null {
  const config = embedConfigFromEnv();
  if (config.provider === 'local' && config.batchSize === undefined) {
    return createEmbedder({ ...config, batchSize: EMBED_BATCH });
  }
  return createEmbedder(config);
}

/** Code tokenizer speed over the whole corpus as one text. */
function tokenizerSpeed(data: Cosqa): CodeEvalReport['tokenizer'] {
  const text = data.functions.map((f) => f.code).join('\n\n');
  const lines = text.split('\n').length;
  codeTokenizer.tokenize(text);
  const started = performance.now();
  let tokens = 0;
  const rounds = 3;
  for (let i = 0; i < rounds; i++) tokens += codeTokenizer.tokenize(text).length;
  const secs = (performance.now() - started) / 1000;
  return {
    file: 'the CoSQA corpus as one text',
    lines,
    tokens: tokens / rounds,
    tokensPerSec: Math.round(tokens / secs),
    linesPerSec: Math.round((lines * rounds) / secs),
  };
}

interface Vectors {
  chunks: Embedded;
  rawChunks: Embedded | null;
  queries: Embedded;
  rawQueries: Embedded;
}

async function embedEverything(
  embedder: Embedder,
  data: Cosqa,
  corpus: StoredCorpus,
  flags: Flags,
): Promise<Vectors> {
  const opts = (label: string) => ({ cache: flags.cache, log, label });
  // What the chunk embedding backlog embeds (codeEmbeddingText for the file's language).
  const texts = corpus.chunks.map((c) =>
    DEFAULT_CODE_EMBED_TEXT.chunk({ ...c, language: 'python' }),
  );
  log(`embedding ${texts.length} chunks (codeEmbeddingText)…`);
  const chunks = await embedAll(embedder, texts, opts('chunks'));
  log(
    `  ${chunks.embedded} embedded now, the rest from the cache, ${(chunks.ms / 1000).toFixed(1)} s`,
  );
  let rawChunks: Embedded | null = null;
  if (!flags.quick) {
    log('embedding the raw chunk texts (attempt)…');
    rawChunks = await embedAll(
      embedder,
      corpus.chunks.map((c) => c.text),
      opts('raw chunks'),
    );
  }
  const queries = await embedAll(embedder, data.queries.map(vectorQueryText), opts('queries'));
  const rawQueries = await embedAll(
    embedder,
    data.queries.map((q) => q.text),
    opts('raw queries'),
  );
  return { chunks, rawChunks, queries, rawQueries };
}

/** Runs the code eval end to end. */
export async function runCodeEval(argv: readonly string[] = []): Promise<void> {
  const flags = parseFlags(argv);
  const machine = machineInfo();
  const data = loadCosqa();
  log(`${data.functions.length} functions, ${data.queries.length} queries`);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-eval-code-'));
  const store = await openSqliteStore(join(dir, 'code-eval.db'));
  const embedder = evalEmbedder();
  try {
    const started = performance.now();
    const corpus = await storeCorpus(store, data.functions);
    const storeMs = performance.now() - started - corpus.chunkMs;
    log(`stored ${corpus.chunks.length} chunks (${corpus.syntax} files by syntax)`);
    const tokenizer = tokenizerSpeed(data);
    const vectors = embedder === null ? null : await embedEverything(embedder, data, corpus, flags);
    const search = await openCodeSearch(
      store,
      corpus,
      vectors?.chunks.vectors ?? null,
      embedder?.model ?? 'none',
    );
    const inputs = {
      search,
      queries: data.queries,
      queryVectors: vectors?.queries.vectors ?? null,
      functionOf: corpus.functionOf,
      chunks: corpus.chunks.length,
      chunk: rerankFields(corpus),
    };
    const modes: ModeResult[] = [];
    for (const mode of vectors === null ? (['fts'] as const) : CODE_MODES) {
      const r = await runMode(inputs, mode);
      const a = r.metrics.all;
      log(`${mode}: MRR ${a.mrr} R@1 ${a.r1} R@10 ${a.r10} (held-out MRR ${r.metrics.test.mrr})`);
      modes.push(r);
    }
    log('attempts: full text…');
    const attempts = await ftsAttempts({ corpus, queries: data.queries, log });
    if (vectors !== null) {
      log('attempts: vectors and fusion…');
      const product = inMemorySearch(corpus, null);
      const fts = [];
      for (const q of data.queries) fts.push(await product.fullText(q.text, corpus.chunks.length));
      attempts.push(
        ...vectorAttempts({
          corpus,
          queries: data.queries,
          fts,
          product: { chunks: vectors.chunks.vectors, queries: vectors.queries.vectors },
          rawChunks: vectors.rawChunks?.vectors ?? null,
          rawQueries: vectors.rawQueries.vectors,
        }),
      );
      log('attempts: rerank…');
      attempts.push(
        ...(await rerankAttempts({
          corpus,
          queries: data.queries,
          fts,
          chunks: vectors.chunks.vectors,
          queryVectors: vectors.queries.vectors,
          log,
        })),
      );
    }
    const report: CodeEvalReport = {
      eval: 'code',
      machine,
      config: {
        data: data.dir,
        quick: flags.quick,
        functions: data.functions.length,
        queries: data.queries.length,
        tuneQueries: TUNE_QUERIES,
        chunks: corpus.chunks.length,
        engine: search.engine,
        embedModel: embedder?.model ?? 'none',
        recipe: {
          tokenizer: codeTokenizer.name,
          fields: CODE_FIELD_WEIGHTS,
          bm25: CODE_BM25,
          fusion: CODE_FUSION,
          rerank: CODE_RERANK,
        },
      },
      ingest: {
        chunkMs: Math.round(corpus.chunkMs),
        storeMs: Math.round(storeMs),
        embedMs: Math.round(vectors?.chunks.ms ?? 0),
        embedded: vectors?.chunks.embedded ?? 0,
        queryEmbedMs: Math.round(vectors?.queries.ms ?? 0),
        syntax: corpus.syntax,
        fallback: corpus.fallback,
      },
      tokenizer,
      modes,
      attempts,
      target: TARGET,
    };
    const markdown = renderCodeEval(report);
    const name = flags.quick ? 'code-eval-quick' : 'code-eval';
    const path = writeResult(name, report);
    if (!flags.quick) await writeEvalSection('code', markdown);
    process.stdout.write(
      `${markdown}\n\nWrote ${path}${flags.quick ? ' (quick: docs untouched)' : ' and docs/benchmarks.md'}.\n`,
    );
  } finally {
    await embedder?.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
