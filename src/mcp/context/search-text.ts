// The readable text of search_code's answer: the honest status in its first words (found,
// nothing matched, an empty or still-building index, everything below min_score, filtered
// out), each hit as `path:start-end` with its snippet, and each searched collection's age and
// freshness. structuredContent carries the complete answer (searchData: the wire names
// for a hit's lines, `start_line` and `end_line`); the text is what a model reads first.
import type {
  CodeSearchHit,
  CodeSearchResult,
  CodeSearchStatus,
  CollectionIndexState,
} from '../../code/index.js';

/** The status in words, loud when the answer holds no result. */
const HEADLINE: Readonly<Record<CodeSearchStatus, string>> = {
  ok: 'Found',
  no_match: 'NO MATCH',
  empty_index: 'EMPTY INDEX',
  below_min_score: 'ALL BELOW min_score',
  filtered_out: 'FILTERED OUT',
};

/** A score to three decimals; a positive one too small for that is `<0.001`, not 0. */
const round = (x: number): string =>
  x > 0 && x < 0.0005 ? '<0.001' : String(Math.round(x * 1000) / 1000);

function ageText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}

/** The first line: status, then the domain's sentences (which say why, and how to narrow). */
function headline(r: CodeSearchResult): string {
  const building = r.building && r.status !== 'empty_index' ? ' (index still building)' : '';
  return `${HEADLINE[r.status]}${building}: ${r.message}`;
}

/** The snippet's lines, numbered with file lines when they are the file's (`>` a match). */
function snippetLines(hit: CodeSearchHit): string[] {
  const lines = hit.snippet.split('\n');
  const at = hit.snippetLines;
  if (at === null) return lines.map((l) => `      ${l}`.trimEnd());
  const width = String(at.end).length;
  const matches = new Set(at.matches);
  return lines.map((l, i) => {
    const n = at.start + i;
    return `    ${String(n).padStart(width)}${matches.has(n) ? '>' : '|'} ${l}`.trimEnd();
  });
}

function hitText(hit: CodeSearchHit, i: number, collections: number): string[] {
  const lines = hit.startLine === hit.endLine ? '' : `-${hit.endLine}`;
  const where = `${hit.path}:${hit.startLine}${lines}`;
  const what = [hit.language ?? 'text', hit.kind].join(' ');
  const ref = hit.branch === '' ? '' : ` @${hit.branch}`;
  const from = collections > 1 ? ` [${hit.collection}]` : '';
  const name = hit.symbol === null ? '' : ` ${hit.symbol}`;
  return [
    `${i + 1}. ${where}${name} (${what}${ref}) score ${round(hit.score)} ${hit.scoreBasis}${from}`,
    ...snippetLines(hit),
  ];
}

/** One line per searched collection: state, chunks, age, what changed on disk since. */
function indexLine(s: CollectionIndexState): string {
  const when = s.indexedAt === null ? 'never completed' : `indexed ${ageText(s.ageMs ?? 0)}`;
  const f = s.freshness;
  const fresh =
    f === null
      ? ''
      : `; since: ${f.changed} changed, ${f.missing} gone of ${f.checked} checked${f.complete === false ? ' (check cut short)' : ''}`;
  const job = s.job === null ? '' : `; job ${s.job.id} ${s.job.phase}`;
  const pending = s.pendingText > 0 ? `; ${s.pendingText} chunks not yet searchable` : '';
  const v = s.vectors;
  const vectors = v === null ? '' : `; vectors ${v.embedded} (${v.pending} waiting, ${v.model})`;
  return `- ${s.collection} [${s.state}${s.building ? ', building' : ''}]: ${s.chunks} chunks, ${when}${fresh}${job}${pending}${vectors}`;
}

/** search_code's text: headline, hits with snippets, then the index each answer came from. */
export function searchText(r: CodeSearchResult): string {
  const collections = new Set(r.results.map((h) => h.collection)).size;
  const index =
    r.index.length === 0
      ? []
      : [
          'Index:',
          ...r.index.map(indexLine),
          ...(r.indexOmitted > 0 ? [`- and ${r.indexOmitted} more collections`] : []),
        ];
  return [
    headline(r),
    ...r.results.flatMap((hit, i) => hitText(hit, i, collections)),
    ...(r.truncated ? [`(${r.omitted} more left out: see the hint above)`] : []),
    ...index,
  ].join('\n');
}

/** A hit as search_code sends it: the domain's hit with its lines as `start_line`/`end_line`. */
export type CodeHitData = Omit<CodeSearchHit, 'startLine' | 'endLine'> & {
  start_line: number;
  end_line: number;
};

/** search_code's structuredContent: the whole result, each hit with the wire's line names. */
export function searchData(
  r: CodeSearchResult,
): Omit<CodeSearchResult, 'results'> & { results: CodeHitData[] } {
  return {
    ...r,
    results: r.results.map(({ startLine, endLine, ...hit }) => ({
      ...hit,
      start_line: startLine,
      end_line: endLine,
    })),
  };
}
