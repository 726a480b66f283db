// The code reranker: each feature of a candidate, the order a weighted sum gives (ties keep
// the fused order), and rerankFused reordering only the fused top and leaving out deleted
// chunks. Weights are passed explicitly; the shipped ones are the eval's to judge.
import { describe, expect, it } from 'vitest';

import { CODE_RERANK, type CodeRerankWeights } from './code-ranking.js';
import {
  type CodeRerankCandidate,
  codeRerankFeatures,
  rerankCode,
  rerankFused,
  rerankScore,
} from './code-rerank.js';

const ZERO: CodeRerankWeights = {
  fused: 0,
  cosine: 0,
  rank: 0,
  length: 0,
  nameCoverage: 0,
  namePrecision: 0,
  textCoverage: 0,
  proseCoverage: 0,
  proseBigrams: 0,
};
const only = (w: Partial<CodeRerankWeights>): CodeRerankWeights => ({ ...ZERO, ...w });

const EXT = `def get_file_extension(path):
    """Return the file extension of a path."""
    return os.path.splitext(path)[1]`;
const READ = `def read_config_file_as_dict_with_defaults(path, defaults):
    # read the file
    with open(path) as f:
        return {**defaults, **json.load(f)}`;

const candidate = (
  id: number,
  symbol: string | null,
  text: string,
  fused: number,
  cosine: number | null = 0.5,
): CodeRerankCandidate => ({ id, symbol, text, fused, cosine, language: 'python' });

describe('codeRerankFeatures', () => {
  it('measures the name, text and prose against the query terms', () => {
    const [ext, read] = codeRerankFeatures('python get file extension', [
      candidate(1, 'get_file_extension', EXT, 2),
      candidate(2, 'read_config_file_as_dict_with_defaults', READ, 1),
    ]);
    // "python" is a query stopword: the terms are get, file, extens.
    expect(ext?.nameCoverage).toBe(1);
    expect(ext?.namePrecision).toBe(1);
    expect(ext?.textCoverage).toBe(1);
    expect(ext?.proseCoverage).toBeCloseTo(2 / 3, 10); // "file extension", not "get"
    expect(ext?.proseBigrams).toBe(0.5); // "file extension" adjacent, "get file" not
    expect(read?.nameCoverage).toBeCloseTo(1 / 3, 10);
    expect(read?.namePrecision).toBeCloseTo(1 / 7, 10); // file of read config file as dict with defaults
    expect(ext?.fused).toBe(2);
    expect(ext?.rank).toBe(1);
    expect(read?.rank).toBe(0.5);
    expect(ext?.length).toBeGreaterThan(Math.log(10));
    expect(read?.length).toBeGreaterThan(ext?.length ?? 0);
  });

  it('z-scores the cosine over the candidates; a chunk without a vector takes the lowest', () => {
    const f = codeRerankFeatures('x', [
      candidate(1, 'a', 'a', 0, 0.9),
      candidate(2, 'b', 'b', 0, 0.1),
      candidate(3, 'c', 'c', 0, null),
    ]);
    const z = f.map((x) => x.cosine);
    expect(z[0]).toBeGreaterThan(0);
    expect(z[1]).toBeLessThan(0);
    expect(z[2]).toBe(z[1]);
    expect(codeRerankFeatures('x', [candidate(1, 'a', 'a', 0, 0.3)])[0]?.cosine).toBe(0);
  });

  it('reads 0 for a chunk without a name or a query without terms', () => {
    const [f] = codeRerankFeatures('the', [candidate(1, null, 'x = 1', 0)]);
    expect(f?.nameCoverage).toBe(0);
    expect(f?.namePrecision).toBe(0);
    expect(f?.proseBigrams).toBe(0);
  });
});

describe('rerankCode', () => {
  const list = [
    candidate(1, 'read_config_file_as_dict_with_defaults', READ, 3),
    candidate(2, 'get_file_extension', EXT, 1),
  ];

  it('orders by the weighted sum of the features', () => {
    expect(rerankCode('file extension', list, only({ fused: 1 })).map((r) => r.id)).toEqual([1, 2]);
    const byName = rerankCode('file extension', list, only({ fused: 1, namePrecision: 10 }));
    expect(byName.map((r) => r.id)).toEqual([2, 1]);
    const features = codeRerankFeatures('file extension', list)[1];
    expect(byName[0]?.score).toBeCloseTo(1 + 10 * (features?.namePrecision ?? 0), 10);
  });

  it('keeps the fused order on ties, and scores with the shipped weights by default', () => {
    expect(rerankCode('zzz', list, ZERO).map((r) => r.id)).toEqual([1, 2]);
    const shipped = rerankCode('file extension', list);
    const features = codeRerankFeatures('file extension', list);
    const byId = new Map(shipped.map((r) => [r.id, r.score]));
    expect(byId.get(1)).toBeCloseTo(rerankScore(features[0] as CodeRerankWeights), 10);
    expect(rerankScore(features[0] as CodeRerankWeights, CODE_RERANK.weights)).toBe(byId.get(1));
  });
});

describe('rerankFused', () => {
  const fused = [10, 11, 12, 13].map((rowid, i) => ({
    rowid,
    score: 4 - i,
    ranks: { fts: i + 1, vector: null },
  }));
  const chunks = new Map([
    [10, { symbol: 'alpha', text: 'def alpha(): pass', language: 'python' }],
    [11, { symbol: 'sort_list', text: 'def sort_list(xs): return sorted(xs)', language: 'python' }],
    [13, { symbol: 'sort_list', text: 'def sort_list(xs): return sorted(xs)', language: 'python' }],
  ]);

  it('reorders the top `depth` only, leaves out chunks without fields, keeps the rest', () => {
    const r = rerankFused(
      'sort list',
      fused,
      (id) => chunks.get(id),
      () => 0.5,
      {
        depth: 3,
        weights: only({ fused: 1, nameCoverage: 5 }),
      },
    );
    // 12 has no fields (deleted since it was ranked); 13 is below the depth, never moved.
    expect(r.top.map((e) => e.rowid)).toEqual([11, 10]);
    expect(r.top[0]).toMatchObject({ fused: 3, score: 3 + 5, ranks: { fts: 2, vector: null } });
    expect(r.rest.map((e) => e.rowid)).toEqual([13]);
  });
});
