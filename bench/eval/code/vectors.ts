// Embeddings for the code eval: texts embedded with the project's embedder in large batches,
// each vector kept in a cache file under the OS temp folder (one file per model, keyed by a
// hash of the text) so a rerun or a changed embedding text embeds only what it has not seen;
// and brute-force cosine ranking over them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Embedder } from '../../../src/embed/index.js';

/** Texts per embed call (the local model's batch is set separately). */
const CALL_BATCH = 256;
const KEY_BYTES = 20;

export interface Embedded {
  vectors: Float32Array[];
  dims: number;
  ms: number;
  /** Texts embedded now; the others came from the cache file. */
  embedded: number;
}

const keyOf = (text: string): string => createHash('sha1').update(text).digest('hex');

const cachePath = (model: string): string =>
  join(tmpdir(), 'cairn-eval-code-vectors', `${keyOf(model).slice(0, 16)}.bin`);

/** The cache file: records of a 20-byte text hash, the dimension count, then the vector. */
function readCache(path: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!existsSync(path)) return out;
  const buf = readFileSync(path);
  let at = 0;
  while (at + KEY_BYTES + 4 <= buf.length) {
    const key = buf.subarray(at, at + KEY_BYTES).toString('hex');
    const dims = buf.readUInt32LE(at + KEY_BYTES);
    const from = at + KEY_BYTES + 4;
    if (from + dims * 4 > buf.length) break;
    const v = new Float32Array(dims);
    for (let i = 0; i < dims; i++) v[i] = buf.readFloatLE(from + i * 4);
    out.set(key, v);
    at = from + dims * 4;
  }
  return out;
}

function writeCache(path: string, cache: ReadonlyMap<string, Float32Array>): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const parts: Buffer[] = [];
  for (const [key, v] of cache) {
    const rec = Buffer.alloc(KEY_BYTES + 4 + v.length * 4);
    Buffer.from(key, 'hex').copy(rec, 0);
    rec.writeUInt32LE(v.length, KEY_BYTES);
    v.forEach((x, i) => rec.writeFloatLE(x, KEY_BYTES + 4 + i * 4));
    parts.push(rec);
  }
  writeFileSync(`${path}.tmp`, Buffer.concat(parts));
  renameSync(`${path}.tmp`, path);
}

export interface EmbedOptions {
  /** Read and write the cache file (default true). */
  cache?: boolean;
  log?: (line: string) => void;
  label?: string;
}

/** Embeds `texts` in order (unit vectors), taking what it can from the cache. */
export async function embedAll(
  embedder: Embedder,
  texts: readonly string[],
  options: EmbedOptions = {},
): Promise<Embedded> {
  const started = performance.now();
  const useCache = options.cache !== false;
  const path = cachePath(embedder.model);
  const cache = useCache ? readCache(path) : new Map<string, Float32Array>();
  const keys = texts.map(keyOf);
  const missing = [...new Set(texts.filter((_, i) => !cache.has(keys[i] as string)))];
  for (let i = 0; i < missing.length; i += CALL_BATCH) {
    const batch = missing.slice(i, i + CALL_BATCH);
    const vectors = await embedder.embed(batch);
    batch.forEach((t, j) => cache.set(keyOf(t), vectors[j] as Float32Array));
    if (missing.length > CALL_BATCH) {
      options.log?.(`  embedded ${i + batch.length}/${missing.length} ${options.label ?? ''}`);
    }
  }
  if (useCache && missing.length > 0) writeCache(path, cache);
  const vectors = keys.map((k) => cache.get(k) as Float32Array);
  const dims = vectors[0]?.length ?? 0;
  return { vectors, dims, ms: performance.now() - started, embedded: missing.length };
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
