// Scrubbing what a session records: every string (keys too) of a JSON value passes memory's
// scrubber with invisible characters stripped, as every memory write does. Bounded in depth.
import type { MemoryScrubber } from '../../memory/index.js';
import { InvalidInputError, stripInvisible } from '../../shared/index.js';

const MAX_DEPTH = 8;

/** Scrubs one text. */
export function scrubText(scrubber: MemoryScrubber) {
  return async (text: string): Promise<string> => (await scrubber.scrub(stripInvisible(text))).text;
}

/** `value` with every string scrubbed; nesting beyond 8 levels refused, naming `field`. */
export async function scrubJson(
  value: unknown,
  clean: (s: string) => Promise<string>,
  field: string,
  depth = 0,
): Promise<unknown> {
  if (depth > MAX_DEPTH)
    throw new InvalidInputError(`nested deeper than ${MAX_DEPTH} levels`, field);
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) {
    return Promise.all(value.map((v) => scrubJson(v, clean, field, depth + 1)));
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[await clean(k)] = await scrubJson(v, clean, field, depth + 1);
    }
    return out;
  }
  return value;
}
