// A cheap deterministic stand-in for the local model, used only to fill the vector channel at
// 100k scale: 512-d hashed bag-of-words unit vectors under its own model id, never the real
// model's. vec0's KNN cost depends on rows × dims, not on where the vectors came from.
import type { Embedder } from '../../src/embed/index.js';

export const FAKE_MODEL_ID = 'bench:hashed-bow-512';
export const FAKE_DIMS = 512;

/** FNV-1a, 32-bit. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Each word adds ±1 at two hashed positions; the sum is scaled to unit length. */
export function hashedVector(text: string): Float32Array {
  const out = new Float32Array(FAKE_DIMS);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    for (const seed of [1, 2]) {
      const h = fnv1a(word, seed);
      const index = h % FAKE_DIMS;
      out[index] = (out[index] ?? 0) + (h & 0x80000000 ? -1 : 1);
    }
  }
  let sum = 0;
  for (const x of out) sum += x * x;
  if (sum === 0) {
    out[0] = 1;
    return out;
  }
  const norm = Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / norm;
  return out;
}

/** The stand-in as an Embedder (always ready, nothing to load or close). */
export function createFakeEmbedder(): Embedder {
  return {
    model: FAKE_MODEL_ID,
    dims: () => FAKE_DIMS,
    warm: () => undefined,
    isReady: () => true,
    embed: (texts) => Promise.resolve(texts.map(hashedVector)),
    close: () => Promise.resolve(),
  };
}
