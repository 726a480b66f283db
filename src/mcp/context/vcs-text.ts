// Readable summaries of the VCS family's answers (the structured copy holds everything).
import type { BranchComparison, ImpactAnalysis, IndexedRepo } from '../../code/index.js';

const SHOWN = 30;
const short = (sha: string): string => sha.slice(0, 12);
const more = (total: number, shown: number): string[] =>
  total > shown ? [`… and ${total - shown} more (see structuredContent)`] : [];

export function reposText(repos: readonly IndexedRepo[], truncated: boolean): string {
  if (repos.length === 0)
    return 'No repository is indexed yet (index one with index_repo), or none matches the filter.';
  const lines = repos.map((r) => {
    const when = r.indexedAt === null ? 'never completed' : new Date(r.indexedAt).toISOString();
    const changed = r.freshness.workTree;
    const fresh =
      changed === null
        ? ''
        : `; ${changed.changed} changed and ${changed.missing} missing of ${changed.checked} checked`;
    const branches = r.branches.indexed.map((b) => (b === '' ? '(work tree)' : b)).join(', ');
    return `- ${r.collection}: ${r.root} [${r.mode}, ${r.state}] ${r.files} files, ${r.chunks} chunks, indexed ${when}${fresh}; branches: ${branches || 'none'}`;
  });
  return [`${repos.length} indexed repositor${repos.length === 1 ? 'y' : 'ies'}:`, ...lines]
    .concat(truncated ? ['(list cut at `limit`)'] : [])
    .join('\n');
}

export function compareText(c: BranchComparison): string {
  const head = `${c.target.ref} (${short(c.target.commit)}) vs ${c.base.ref} (${short(c.base.commit)}), ${c.comparison === 'merge-base' ? `since merge base ${short(c.from)}` : 'no common ancestor: compared directly'}: ${c.totals.files} files, +${c.totals.linesAdded} −${c.totals.linesRemoved}.`;
  const files = c.files
    .slice(0, SHOWN)
    .map(
      (f) =>
        `- ${f.status} ${f.previousPath !== null ? `${f.previousPath} → ` : ''}${f.path}${f.binary ? ' (binary)' : ` +${f.linesAdded} −${f.linesRemoved}`}`,
    );
  const t = c.symbolTotals;
  const symbols = c.symbols
    .slice(0, SHOWN)
    .map(
      (s) =>
        `- ${s.change} ${s.kind} ${s.symbol} (${s.path})${s.signatureChanged ? ' [signature changed]' : ''}`,
    );
  const cut = Object.entries(c.truncated)
    .filter(([, v]) => v)
    .map(([k]) => k);
  return [
    head,
    'Files:',
    ...files,
    ...more(c.files.length, SHOWN),
    `Symbols: ${t.added} added, ${t.removed} removed, ${t.changed} changed (${t.signatureChanged} signatures), ${t.unchanged} unchanged.`,
    ...symbols,
    ...more(c.symbols.length, SHOWN),
    ...(cut.length > 0 ? [`Truncated: ${cut.join(', ')}.`] : []),
  ].join('\n');
}

export function impactText(r: ImpactAnalysis): string {
  const graph =
    r.graph.source === 'index'
      ? `index ${r.graph.collection ?? ''}${r.graph.stale ? ` (stale: ${r.graph.staleFiles.length} changed files differ)` : ''}`
      : `tree at ${short(r.graph.commit ?? '')}`;
  const dependents = r.dependents
    .slice(0, SHOWN)
    .map(
      (d) =>
        `- depth ${d.depth} ${d.path}${d.symbol === null ? '' : ` ${d.symbol}`} via ${d.via} of ${d.uses.join(', ')}${d.linked ? '' : ' (name match only)'}${d.test ? ' [test]' : ''}`,
    );
  return [
    `Impact ${r.score}/100 (${r.level}) of ${r.target.ref} vs ${r.base.ref}, depth ${r.depth}, graph: ${graph}.`,
    ...r.reasons.map((x) => `- ${x.factor} ${x.points}/${x.max}: ${x.detail}`),
    `${r.changed.length} changed symbols; ${r.dependents.length} dependents in ${r.files.length} files:`,
    ...dependents,
    ...more(r.dependents.length, SHOWN),
  ].join('\n');
}
