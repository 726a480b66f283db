// CoSQA loader: reads ../shared/data/cosqa (never copied into the repo): the 6,267-function
// corpus and the 500 queries with the index of the function each is paired with. Only the
// query text and that index are read from the query file, never its answer tokens.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { ROOT } from '../../lib/report.js';

/**
 * The shared data folder: `<repo>/../shared/data`, as the memory eval finds LoCoMo, or
 * `CAIRN_EVAL_DATA` when set (a git worktree lives one level deeper than the main checkout).
 */
export const dataDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.CAIRN_EVAL_DATA ?? resolve(ROOT, '..', 'shared', 'data');

export const CORPUS_FILE = 'code_idx_map.txt';
export const QUERY_FILE = 'cosqa-retrieval-test-500.json';

export interface CosqaFunction {
  /** The function's index in the corpus (what a query's answer names). */
  index: number;
  code: string;
}

export interface CosqaQuery {
  /** Position in the query file (0-based): the tuning split is the first half. */
  position: number;
  id: string;
  text: string;
  /** Corpus index of the paired function. */
  answer: number;
}

export interface Cosqa {
  dir: string;
  functions: CosqaFunction[];
  queries: CosqaQuery[];
}

interface RawQuery {
  idx: string;
  doc: string;
  retrieval_idx: number;
}

/**
 * Loads CoSQA from `dir` (default `<dataDir()>/cosqa`).
 * @throws Error with a clear message when the files are missing or a query names no function.
 */
export function loadCosqa(dir = join(dataDir(), 'cosqa')): Cosqa {
  const corpusPath = join(dir, CORPUS_FILE);
  const queryPath = join(dir, QUERY_FILE);
  if (!existsSync(corpusPath) || !existsSync(queryPath)) {
    throw new Error(
      `CoSQA data not found in ${dir}. The code eval reads ${join('..', 'shared', 'data', 'cosqa')} relative to the repo root (or $CAIRN_EVAL_DATA/cosqa); it is never copied into the repo.`,
    );
  }
  const map = JSON.parse(readFileSync(corpusPath, 'utf8')) as Record<string, number>;
  const functions = Object.entries(map)
    .map(([code, index]) => ({ index, code }))
    .sort((a, b) => a.index - b.index);
  const known = new Set(functions.map((f) => f.index));
  const raw = JSON.parse(readFileSync(queryPath, 'utf8')) as RawQuery[];
  const queries = raw.map((q, position) => {
    if (!known.has(q.retrieval_idx)) {
      throw new Error(`CoSQA query ${q.idx} names function ${q.retrieval_idx}, not in the corpus`);
    }
    return { position, id: q.idx, text: q.doc, answer: q.retrieval_idx };
  });
  return { dir, functions, queries };
}
