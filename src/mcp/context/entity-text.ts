// Readable answers of the project and entity tools (structuredContent holds all): the engine's
// message, then the record's fields one per line, or one line per listed record.
import type { EntityOutcome, EntityRecord } from '../../entity/index.js';

const SKIP = new Set(['resource', 'id', 'provenance']);

const shown = (v: unknown): string =>
  typeof v === 'string' ? (v.split('\n', 1)[0]?.slice(0, 200) ?? '') : JSON.stringify(v);

const when = (v: unknown): unknown =>
  typeof v === 'number' && v > 1e12 ? new Date(v).toISOString() : v;

function fieldLines(r: EntityRecord): string[] {
  return Object.entries(r)
    .filter(([k, v]) => !SKIP.has(k) && v !== null && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `  ${k}: ${shown(k.endsWith('At') ? when(v) : v)}`);
}

function recordLine(r: EntityRecord): string {
  const label = r['title'] ?? r['name'] ?? r['email'] ?? r['path'] ?? r['agent'] ?? r['body'];
  const status = typeof r['status'] === 'string' ? ` [${r['status']}]` : '';
  const released = typeof r['releasedAt'] === 'number' ? ' [released]' : '';
  return `- ${r.id}${status}${released}${label === undefined ? '' : ` ${shown(label)}`}`;
}

/** The text of one project or entity call. */
export function outcomeText(o: EntityOutcome): string {
  const lines = [o.message];
  if (o.secret !== undefined) lines.push(`secret: ${o.secret}`);
  if (o.list !== undefined) lines.push(...o.list.records.map(recordLine));
  else if (o.record !== undefined && o.action !== 'delete') lines.push(...fieldLines(o.record));
  return lines.join('\n');
}

/** The structured answer: the outcome with the list's fields at the top level. */
export function outcomeData(o: EntityOutcome): Record<string, unknown> {
  const { list, ...rest } = o;
  return list === undefined ? { ...rest } : { ...rest, ...list };
}
