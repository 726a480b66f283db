// A list's honest answer: nothing exists (empty), the scoping ids and filters removed
// everything (filtered_out), or which page of how many matches is shown (truncated when more).
import type { EntityList, EntityRecord } from './model.js';

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The list answer for `resource` from its counts, page and records. */
export function listAnswer(
  resource: string,
  page: {
    stored: number;
    matching: number;
    records: EntityRecord[];
    limit: number;
    offset: number;
  },
): EntityList {
  const { stored, matching, records, limit, offset } = page;
  const status = stored === 0 ? 'empty' : matching === 0 ? 'filtered_out' : 'ok';
  const shown = records.length;
  const truncated = offset + shown < matching;
  let message: string;
  if (status === 'empty') message = `No ${resource} exists yet (create one with action create).`;
  else if (status === 'filtered_out') {
    message = `${plural(stored, resource)} stored, none matches the scoping ids and filters.`;
  } else if (shown === 0) {
    message = `${plural(matching, resource)} match, none from offset ${offset}.`;
  } else {
    const range = shown === matching ? '' : `, showing ${offset + 1}–${offset + shown}`;
    const more = truncated ? ` (more: offset ${offset + shown})` : '';
    message = `${plural(matching, resource)} match${matching === 1 ? 'es' : ''}${range}${more}.`;
  }
  return { status, message, records, stored, matching, offset, limit, truncated };
}
