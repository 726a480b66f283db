// The full-text rungs of the attempts ladder: a plain BM25 baseline, the code tokenizer with
// and without its query vocabulary, the chunk fields one by one, then grids of field weights
// and BM25 parameters searched on the tuning half. All in memory over the stored chunks.
import {
  CODE_BM25,
  CODE_FIELD_WEIGHTS,
  CODE_SYNONYMS,
  codeTokenizer,
  createCodeTokenizer,
  type Token,
  type Tokenizer,
} from '../../../src/search/index.js';
import { type Attempt, attempt, bestOnTune, type Ranks } from './attempts.js';
import type { Bm25Params, FieldWeights } from './bm25.js';
import type { StoredCorpus } from './corpus.js';
import type { CosqaQuery } from './data.js';
import { functionRank } from './score.js';
import { analyseChunks, inMemorySearch } from './search.js';

/** The baseline's tokenizer: runs of letters, digits and `_`, lower-cased; no stemming, no stopwords. */
export const plainTokenizer: Tokenizer = {
  name: 'plain',
  tokenize(text: string): Token[] {
    return [...text.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => {
      const word = m[0].toLowerCase();
      return { start: m.index, end: m.index + m[0].length, word, term: word };
    });
  },
  queryTerms(text: string): string[] {
    return [...new Set(this.tokenize(text).map((t) => t.term))];
  },
};

const TEXT_ONLY: FieldWeights = { symbol: 0, signature: 0, prose: 0, text: 1, path: 0 };
const FTS_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

const describeWeights = (w: FieldWeights): string =>
  `symbol ${w.symbol}, signature ${w.signature}, prose ${w.prose}, text ${w.text}`;

export interface FtsContext {
  corpus: StoredCorpus;
  queries: readonly CosqaQuery[];
  log: (line: string) => void;
}

/** Whole-corpus ranks of every query for one full-text configuration. */
async function ftsRanks(
  ctx: FtsContext,
  analysed: ReturnType<typeof analyseChunks>,
  weights: FieldWeights,
  bm25: Bm25Params,
): Promise<Ranks> {
  const search = inMemorySearch(ctx.corpus, null, { analysed, weights, bm25 });
  const limit = ctx.corpus.chunks.length;
  const ranks: (number | null)[] = [];
  for (const q of ctx.queries) {
    const hits = await search.fullText(q.text, limit);
    ranks.push(
      functionRank(
        hits.map((h) => h.id),
        ctx.corpus.functionOf,
        q.answer,
      ),
    );
  }
  return ranks;
}

/** Cartesian product of small option lists. */
function grid<K extends string>(axes: Record<K, readonly number[]>): Record<K, number>[] {
  let out: Record<string, number>[] = [{}];
  for (const [key, values] of Object.entries(axes) as [K, readonly number[]][]) {
    out = out.flatMap((p) => values.map((v) => ({ ...p, [key]: v })));
  }
  return out as Record<K, number>[];
}

/** Every full-text attempt, in ladder order. */
export async function ftsAttempts(ctx: FtsContext): Promise<Attempt[]> {
  const out: Attempt[] = [];
  const plain = analyseChunks(ctx.corpus.chunks, plainTokenizer);
  out.push(
    attempt(
      'baseline',
      'plain BM25 over the chunk text (words, no stemming)',
      'fts',
      await ftsRanks(ctx, plain, TEXT_ONLY, FTS_BM25),
    ),
  );
  const bare = analyseChunks(
    ctx.corpus.chunks,
    createCodeTokenizer({ stopwords: new Set(), synonyms: [] }),
  );
  out.push(
    attempt(
      'tokenizer',
      'code tokenizer, text only, no query vocabulary',
      'fts',
      await ftsRanks(ctx, bare, TEXT_ONLY, FTS_BM25),
    ),
  );
  const code = analyseChunks(ctx.corpus.chunks, codeTokenizer);
  out.push(
    attempt(
      'tokenizer',
      '+ query stopwords (function words, language names): the code tokenizer',
      'fts',
      await ftsRanks(ctx, code, TEXT_ONLY, FTS_BM25),
    ),
  );
  const synonyms = analyseChunks(
    ctx.corpus.chunks,
    createCodeTokenizer({ synonyms: CODE_SYNONYMS }),
  );
  out.push(
    attempt(
      'tokenizer',
      '+ code synonyms (CODE_SYNONYMS; not adopted)',
      'fts',
      await ftsRanks(ctx, synonyms, TEXT_ONLY, FTS_BM25),
    ),
  );
  ctx.log('  tokenizer rungs done');
  const steps: [string, FieldWeights][] = [
    ['+ symbol field ×3', { ...TEXT_ONLY, symbol: 3 }],
    ['+ signature field ×1', { ...TEXT_ONLY, symbol: 3, signature: 1 }],
    [
      '+ prose field ×1 (docstrings, comments)',
      { ...TEXT_ONLY, symbol: 3, signature: 1, prose: 1 },
    ],
  ];
  for (const [change, weights] of steps) {
    out.push(attempt('fields', change, 'fts', await ftsRanks(ctx, code, weights, FTS_BM25)));
  }
  const product = await ftsRanks(ctx, code, CODE_FIELD_WEIGHTS, CODE_BM25);
  out.push(
    attempt(
      'fields',
      `product: ${describeWeights(CODE_FIELD_WEIGHTS)}, path ${CODE_FIELD_WEIGHTS.path}; k1 ${CODE_BM25.k1}, b ${CODE_BM25.b}`,
      'fts',
      product,
      { product: true },
    ),
  );
  const points = grid({
    symbol: [1, 2, 3, 5],
    signature: [0, 1, 2],
    prose: [0, 1, 2],
    text: [0.5, 1],
  });
  const weightsOf = (p: Record<string, number>): FieldWeights => ({ ...CODE_FIELD_WEIGHTS, ...p });
  const fields: { point: Record<string, number>; ranks: Ranks }[] = [];
  for (const point of points) {
    fields.push({ point, ranks: await ftsRanks(ctx, code, weightsOf(point), CODE_BM25) });
  }
  out.push(bestOnTune('fields', 'fts', fields, (p) => describeWeights(weightsOf(p))).attempt);
  ctx.log(`  field grid (${points.length}) done`);
  const params: { point: Bm25Params; ranks: Ranks }[] = [];
  for (const point of grid({ k1: [0.9, 1.2, 1.5, 2], b: [0.5, 0.75, 0.9] })) {
    params.push({ point, ranks: await ftsRanks(ctx, code, CODE_FIELD_WEIGHTS, point) });
  }
  out.push(
    bestOnTune('bm25', 'fts', params, (p) => `k1 ${p.k1}, b ${p.b} (product fields)`).attempt,
  );
  ctx.log(`  bm25 grid (${params.length}) done`);
  out.push(
    attempt(
      'tokenizer',
      'product + code synonyms (not adopted)',
      'fts',
      await ftsRanks(ctx, synonyms, CODE_FIELD_WEIGHTS, CODE_BM25),
    ),
  );
  return out;
}
