// The honest part of a search answer: which status it has and the sentences that say what
// happened (nothing matched, an empty or still-building index, everything under min_score, a
// filter that removed everything, vectors that could not take part, files changed since the
// index), and the byte budget that keeps the whole answer bounded. Pure.
import type { CodeSearchHit, CodeSearchResult, CollectionIndexState } from './types.js';

const round = (x: number): string => String(Math.round(x * 1000) / 1000);

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `collection "x"` or `the 3 collections`. */
export function scopeLabel(named: string | undefined, count: number): string {
  if (named !== undefined) return `collection ${JSON.stringify(named)}`;
  return count === 1 ? 'the one indexed collection' : `all ${count} indexed collections`;
}

function ageText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} days`;
}

/** Why the searched collections hold no chunk. */
export function emptyIndexText(states: readonly CollectionIndexState[], total: number): string {
  if (total === 0) return 'No code is indexed yet: index a repository with index_repo first.';
  const parts = states.map((s) =>
    s.job !== null
      ? `${JSON.stringify(s.collection)} is being indexed (job ${s.job.id}, ${s.job.phase}, ${s.job.filesSeen} of ${s.job.filesTotal} files seen)`
      : `${JSON.stringify(s.collection)} has no chunks (state ${s.state})`,
  );
  return `The index is empty: ${parts.join('; ')}. Search again once index_repo has finished.`;
}

/** Collections still being built, as one sentence (null when none). */
export function buildingText(states: readonly CollectionIndexState[], building: boolean) {
  if (!building) return null;
  const named = states.filter((s) => s.building).map((s) => JSON.stringify(s.collection));
  const which = named.length > 0 ? `of ${named.join(', ')} ` : '';
  return `The index ${which}is still being built: these results cover only what is searchable so far.`;
}

/** Collections with files changed since their index, as one sentence (null when none). */
export function staleText(states: readonly CollectionIndexState[]): string | null {
  const stale = states.flatMap((s) => {
    const f = s.freshness;
    if (f === null || f.changed + f.missing === 0) return [];
    const what = [
      f.changed > 0 ? `${plural(f.changed, 'file')} changed` : '',
      f.missing > 0 ? `${plural(f.missing, 'file')} gone` : '',
    ].filter((w) => w !== '');
    const age = s.ageMs === null ? '' : ` (indexed ${ageText(s.ageMs)} ago)`;
    return [`${what.join(' and ')} in ${JSON.stringify(s.collection)}${age}`];
  });
  if (stale.length === 0) return null;
  return `Since indexing, ${stale.join('; ')}: results may be out of date; re-run index_repo to refresh.`;
}

export interface Tally {
  shown: number;
  candidates: number;
  textMatches: number;
  dropped: number;
  best: number | null;
  minScore: number;
  basis: CodeSearchResult['scoreBasis'];
}

/** The status sentence of a search that ranked something or nothing. */
export function outcomeText(status: CodeSearchResult['status'], t: Tally, scope: string): string {
  switch (status) {
    case 'no_match':
      return `Nothing in ${scope} matches the query.`;
    case 'filtered_out':
      return `The query matches chunks in ${scope}, but none passes the extensions and filters given: loosen them.`;
    case 'below_min_score':
      return `All ${plural(t.candidates, 'candidate')} scored below min_score ${round(t.minScore)} (best ${round(t.best ?? 0)} on the ${t.basis} scale): lower min_score or rephrase.`;
    default: {
      const dropped =
        t.dropped > 0
          ? ` ${plural(t.dropped, 'candidate')} below min_score ${round(t.minScore)} left out.`
          : '';
      const weak =
        t.textMatches === 0
          ? ' No chunk holds a query term: these are the nearest by embedding only, and may be weak.'
          : '';
      return `${plural(t.shown, 'result')} from ${scope}, scored ${t.basis}.${dropped}${weak}`;
    }
  }
}

const NARROW =
  'narrow with collection, extensions, filters (path:, lang:, kind:, symbol:, branch:) or a lower limit';

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** Room left for the truncation sentence and hint, so fitting does not overshoot. */
const RESERVE = 512;

/**
 * `result` with as many of `hits` as fit in `maxBytes` of JSON; when some do not, `truncated`,
 * `omitted`, `hint` and a sentence in `message` say so.
 */
export function fitAnswer(
  result: CodeSearchResult,
  hits: readonly CodeSearchHit[],
  maxBytes: number,
): CodeSearchResult {
  let room = maxBytes - bytes({ ...result, results: [] }) - RESERVE;
  const shown: CodeSearchHit[] = [];
  for (const hit of hits) {
    room -= bytes(hit) + 1;
    if (room < 0) break;
    shown.push(hit);
  }
  const omitted = hits.length - shown.length;
  if (omitted === 0) return { ...result, results: shown };
  const kib = Math.round(maxBytes / 1024);
  const hint = `Showing ${shown.length} of ${hits.length} results to stay within ${kib} KiB: ${NARROW}.`;
  return {
    ...result,
    results: shown,
    truncated: true,
    omitted,
    hint,
    message: `${result.message} ${hint}`,
  };
}
