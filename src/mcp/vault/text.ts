// Readable summaries of cairn-vault answers (structuredContent carries everything): the status
// or regime first, then one line per hit with its docid, path, score and basis, and its snippet.
import type { CausalHit, VaultHit } from '../../vault/index.js';

const score = (n: number): string => n.toFixed(3);

/** One numbered line per hit plus its snippet, indented. */
export function hitLines(hits: readonly (VaultHit | CausalHit)[], basis?: string): string[] {
  return hits.flatMap((h, i) => {
    const b = 'scoreBasis' in h ? h.scoreBasis : basis;
    const head = `${i + 1}. ${h.docid} ${h.path} — ${h.title} (score ${score(h.score)}${b === undefined ? '' : ` ${b}`})`;
    const snippet = h.snippet.replace(/\s+/g, ' ').trim();
    const causal = 'causal' in h ? h.causal : undefined;
    const via =
      causal === undefined
        ? []
        : [
            `   via the causal hop: ${causal.map((m) => `${m.direction} of ${m.anchorDocid}`).join(', ')}`,
          ];
    return [head, ...via, ...(snippet === '' ? [] : [`   ${snippet}`])];
  });
}

/** A search-like answer: what ran, how it ended, the hits. */
export function searchText(a: {
  query: string;
  regime?: string;
  scoreBasis?: string;
  status?: string;
  message?: string;
  results: readonly VaultHit[];
  degraded?: boolean;
  degradedReason?: string;
  degradedLegs?: readonly { leg: string; reason: string }[];
  stages?: object;
}): string {
  const head = [
    a.status === undefined || a.status === 'found'
      ? `${a.results.length} result(s)`
      : `${a.status.toUpperCase()}: ${a.message ?? ''}`,
    a.regime === undefined ? '' : `${a.regime} regime`,
    a.scoreBasis === undefined ? '' : `scoreBasis ${a.scoreBasis}`,
  ]
    .filter((s) => s !== '')
    .join('; ');
  const lines = [`${head} for "${a.query}"`];
  if (a.degraded === true) {
    const legs = a.degradedLegs?.map((l) => `${l.leg}: ${l.reason}`).join(', ');
    lines.push(
      `DEGRADED: ${a.degradedReason ?? legs ?? ''}${a.degradedReason === 'excluded-dominant' ? ' (excluded documents fill the nearest neighbours: try includeInternal: true or a refined query)' : ''}`,
    );
  }
  if (a.stages !== undefined) {
    lines.push(
      `stages: ${Object.entries(a.stages)
        .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(' ') : String(v)}`)
        .join('; ')}`,
    );
  }
  lines.push(...hitLines(a.results, a.scoreBasis));
  return lines.join('\n');
}
