// Vector plumbing shared by every provider: batching, shape checks, unit normalisation.
// Pure functions; no I/O.
import { EmbedError } from './errors.js';

/**
 * The texts a provider is actually sent. An empty string is replaced by one space: the local
 * model crashes on a batch whose texts have no tokens, and OpenAI rejects empty input.
 */
export function prepareTexts(texts: readonly string[]): string[] {
  return texts.map((text) => (text === '' ? ' ' : text));
}

/** Runs `fn` over consecutive slices of at most `size` items, one at a time, in order. */
export async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  fn: (batch: T[]) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(...(await fn(items.slice(start, start + size))));
  }
  return out;
}

/** Scales to unit length into a fresh Float32Array (its own buffer). */
function unit(raw: ArrayLike<number>, label: string): Float32Array {
  const out = Float32Array.from(raw);
  let sum = 0;
  for (const x of out) sum += x * x;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new EmbedError('malformed', `embed: ${label} returned a zero or non-finite vector`);
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / norm;
  return out;
}

/**
 * Checks a provider's raw answer (one vector per input, all of one length, matching `dims` when
 * known) and returns unit-length copies.
 * @throws EmbedError `malformed` naming what was wrong.
 */
export function toUnitVectors(
  raw: readonly ArrayLike<number>[],
  expected: { count: number; dims: number | undefined; label: string },
): Float32Array[] {
  const { count, label } = expected;
  if (raw.length !== count) {
    throw new EmbedError(
      'malformed',
      `embed: ${label} returned ${raw.length} vectors for ${count} texts`,
    );
  }
  const dims = expected.dims ?? raw[0]?.length ?? 0;
  if (dims < 1) throw new EmbedError('malformed', `embed: ${label} returned empty vectors`);
  const bad = raw.find((v) => v.length !== dims);
  if (bad !== undefined) {
    throw new EmbedError(
      'malformed',
      `embed: ${label} returned a ${bad.length}-dimensional vector where ${dims} were expected`,
    );
  }
  return raw.map((v) => unit(v, label));
}
