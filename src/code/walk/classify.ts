// Classifies a file by the first bytes of its content: binary (NUL bytes, or too much invalid
// UTF-8) or minified (very long average lines). Reads at most SNIFF_BYTES; never a whole file.
import { open } from 'node:fs/promises';

import type { SkipReason } from './types.js';

/** How many leading bytes are sniffed. */
export const SNIFF_BYTES = 16 * 1024;
/** Above this share of U+FFFD among decoded characters, a file is binary. */
const INVALID_UTF8_RATIO = 0.02;
/** A sample this long whose lines average more than MINIFIED_LINE characters is minified. */
const MINIFIED_SAMPLE = 2048;
const MINIFIED_LINE = 400;

/**
 * `binary`, `minified` or null (text worth indexing), from a file's leading bytes and name.
 * Exported for callers that read content themselves (the git_index reader).
 */
export function classifyContent(head: Uint8Array, name: string): SkipReason | null {
  if (head.includes(0)) return 'binary';
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head, { stream: true });
  let invalid = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) invalid++;
  if (text.length > 0 && invalid / text.length > INVALID_UTF8_RATIO) return 'binary';
  if (/\.min\.[a-z]+$/i.test(name)) return 'minified';
  if (text.length >= MINIFIED_SAMPLE) {
    let lines = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    if (text.length / lines > MINIFIED_LINE) return 'minified';
  }
  return null;
}

/** Reads a file's first SNIFF_BYTES and classifies it. */
export async function sniffFile(absPath: string, name: string): Promise<SkipReason | null> {
  const handle = await open(absPath, 'r');
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return classifyContent(buffer.subarray(0, bytesRead), name);
  } finally {
    await handle.close();
  }
}
