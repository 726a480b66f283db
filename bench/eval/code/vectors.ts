// Embeddings for the code eval: texts embedded with the project's embedder in large batches,
// kept in a cache file under the OS temp folder (keyed by model and texts) so a rerun or a
// sweep does not embed 6,267 functions again; and brute-force cosine ranking over them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Embedder } from '../../../src/embed/index.js';

/** Texts per embed call (the local model's batch is set separately). */
const CALL_BATCH = 256;

export interface Embedded {
  vectors: Float32Array[];
  dims: number;
  ms: number;
  /** True when the vectors came from the cache file (ms is then the read time). */
  cached: boolean;
}

const cachePath = (model: string, texts: readonly string[]): string => {
  const h = createHash('sha256').update(model);
  for (const t of texts) h.update('\u0000').update(t);
  return join(tmpdir(), 'cairn-eval-code-vectors', `${h.digest('hex').slice(0, 32)}.f32`);
};

function readCache(path: string, count: number): Float32Array[] | null {
  if (!existsSync(path)) return null;
  const buf = readFileSync(path);
  const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  if (count === 0 || all.length % count !== 0) return null;
  const dims = all.length / count;
  return Array.from({ length: count }, (_, i) => all.slice(i * dims, (i + 1) * dims));
}

function writeCache(path: string, vectors: readonly Float32Array[]): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const dims = vectors[0]?.length ?? 0;
  const all = new Float32Array(vectors.length * dims);
  vectors.forEach((v, i) => all.set(v, i * dims));
  writeFileSync(`${path}.tmp`, Buffer.from(all.buffer));
  renameSync(`${path}.tmp`, path);
}

export interface EmbedOptions {
  /** Read and write the cache file (default true). */
  cache?: boolean;
  log?: (line: string) => void;
  label?: string;
}

/** Embeds `texts` in order (unit vectors), from the cache when it holds them. */
export async function embedAll(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedOptions = {},
): Promise<Embedded> {
  const started = performance.now();
  const path = cachePath(embedder.model, texts);
  const useCache = options.cache !== false;
  const hit = useCache ? readCache(path, texts.length) : null;
  if (hit !== null) {
    const dims = hit[0]?.length ?? 0;
    return { vectors: hit, dims, ms: performance.now() - started, cached: true };
  }
  const vectors: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += CALL_BATCH) {
    vectors.push(...(await embedder.embed(texts.slice(i, i + CALL_BATCH))));
    if (texts.length > CALL_BATCH) {
      options.log?.(`  embedded ${vectors.length}/${texts.length} ${options.label ?? ''}`);
    }
  }
  if (useCache && vectors.length > 0) writeCache(path, vectors);
  const dims = vectors[0]?.length ?? 0;
  return { vectors, dims, ms: performance.now() - started, cached: false };
}

/** Dot product (cosine, for unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/** Cosine of `query` against every vector, in vector order. */
export const cosines = (query: Float32Array, vectors: readonly Float32Array[]): Float64Array =>
  Float64Array.from(vectors, (v) => dot(query, v));
