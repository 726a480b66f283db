// BM25 as FTS5 computes it, split for an impact-ordered index: a document's term weights are
// saturated once, at write time (`impactOf`, stored as integers), and a query sums
// idf × impact. Also the packed form a document's (term id, impact) list is stored in.
import { termCounts, type Tokenizer } from './tokenizer.js';

/** BM25 parameters, as FTS5 uses them. */
export const K1 = 1.2;
export const B = 0.75;

/** BM25's term-frequency saturation `k1` and length normalisation `b`. */
export interface Bm25Params {
  readonly k1: number;
  readonly b: number;
}

const FTS5_PARAMS: Bm25Params = { k1: K1, b: B };
/** Term weights are stored as integers: weight × IMPACT_SCALE, rounded (max 2.2 → 22,000). */
export const IMPACT_SCALE = 10_000;

/** A document's weighted term frequencies (Σ field weight × count) and its length in tokens. */
export interface WeightedTerms {
  weights: Map<string, number>;
  length: number;
}

/**
 * Tokenizes each field of a document and sums its term counts times the field's weight (as
 * FTS5's per-column bm25 weights do); the length counts every token of every field.
 */
export function weightedTerms(
  tokenizer: Tokenizer,
  fields: readonly string[],
  fieldWeights: readonly number[],
): WeightedTerms {
  const weights = new Map<string, number>();
  let length = 0;
  fields.forEach((text, field) => {
    const { counts, length: n } = termCounts(tokenizer, text);
    length += n;
    const w = fieldWeights[field] ?? 1;
    for (const [term, c] of counts) weights.set(term, (weights.get(term) ?? 0) + w * c);
  });
  return { weights, length };
}

/**
 * BM25's saturated weight of a weighted frequency `tf` in a `length`-token document, scaled
 * (`params` default to FTS5's k1 1.2, b 0.75).
 */
export const impactOf = (
  tf: number,
  length: number,
  avgdl: number,
  params: Bm25Params = FTS5_PARAMS,
): number => {
  const { k1, b } = params;
  return Math.max(
    1,
    Math.round((IMPACT_SCALE * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avgdl))),
  );
};

/** FTS5's IDF: ln((N − df + ½) / (df + ½)), floored at 1e-6 for very common terms. */
export const idf = (n: number, df: number): number =>
  Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));

/** Packs (term id, impact) pairs: n uint32 ids, then n uint16 impacts, little-endian. */
export function packTerms(ids: readonly number[], impacts: readonly number[]): Uint8Array {
  const out = new Uint8Array(ids.length * 6);
  const view = new DataView(out.buffer);
  ids.forEach((id, i) => view.setUint32(i * 4, id, true));
  impacts.forEach((v, i) => view.setUint16(ids.length * 4 + i * 2, Math.min(65_535, v), true));
  return out;
}

/** The inverse of `packTerms`. */
export function unpackTerms(blob: Uint8Array): { ids: Uint32Array; impacts: Uint16Array } {
  const n = Math.floor(blob.byteLength / 6);
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const ids = new Uint32Array(n);
  const impacts = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = view.getUint32(i * 4, true);
    impacts[i] = view.getUint16(n * 4 + i * 2, true);
  }
  return { ids, impacts };
}
