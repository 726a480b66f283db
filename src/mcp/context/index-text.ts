// Readable summaries of the index family's answers (the structured copy holds everything).
// A job that matched nothing, failed or is still running says so in its first words.
import type {
  ChunkEmbeddings,
  ClearResult,
  CollectionStatus,
  FreshnessReport,
  GitIndexPlan,
  IndexPlan,
  JobStatus,
} from '../../code/index.js';

const counts = (o: Readonly<Record<string, number | { count: number } | undefined>>): string =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${typeof v === 'number' ? v : (v?.count ?? 0)}`)
    .join(', ');

export function planText(plan: IndexPlan | GitIndexPlan): string {
  if (plan.nothingToIndex !== null) {
    return `Dry run: NOTHING would be indexed in ${plan.root}: ${plan.nothingToIndex.message}`;
  }
  if (plan.mode === 'git' && 'branches' in plan) {
    const refs = plan.branches.map(
      (b) =>
        `- ${b.ref} (${b.commit.slice(0, 12)}): ${b.files} files, ${b.bytes} bytes; ${counts(b.languages)}`,
    );
    return [
      `Dry run (git_index) of ${plan.root}: ${plan.files} files, ${plan.bytes} bytes in ${plan.branches.length} refs; about ${plan.estimate.seconds} s. Nothing was written.`,
      ...refs,
    ].join('\n');
  }
  const p = plan as IndexPlan;
  return [
    `Dry run of ${p.root} (${p.mode}): ${p.files} files, ${p.bytes} bytes, ${p.lines} lines; about ${p.estimate.seconds} s at ${p.estimate.linesPerSecond} lines/s. Nothing was written.`,
    `Languages: ${counts(p.languages) || 'none'}.`,
    `Skipped ${p.skipped.total}: ${counts(p.skipped.byReason) || 'none'}.`,
    ...(p.truncated
      ? ['The walk hit its file limit: narrow with extensions or exclude_dirs.']
      : []),
  ].join('\n');
}

export function jobText(job: JobStatus, alreadyRunning: boolean): string {
  const f = job.files;
  const tally = `${f.indexed} indexed, ${f.unchanged} unchanged, ${f.removed} removed, ${f.skipped} skipped (${counts(job.skippedByReason) || 'none'}), ${job.chunks} chunks, ${job.errorCount} errors`;
  if (job.nothingToIndex !== null) {
    return `NOTHING INDEXED in collection ${job.collection}: ${job.nothingToIndex.message}. The previous index (if any) is unchanged.`;
  }
  switch (job.state) {
    case 'done':
      return `Indexed collection ${job.collection}: ${tally}; ${job.rate.linesPerSecond} lines/s.`;
    case 'failed':
    case 'cancelled':
      return `Index job ${job.id} ${job.state} (${job.message ?? 'no reason recorded'}); the previous complete index of ${job.collection} (if any) is kept. So far: ${tally}.`;
    default:
      return `${alreadyRunning ? 'A job was already running' : 'Indexing'} collection ${job.collection} (job ${job.id}, ${job.phase}, ${job.progress ?? '?'}%): ${tally}. Still running: poll index_status.`;
  }
}

type StatusEntry = CollectionStatus & {
  freshness: FreshnessReport | null;
  embeddings: ChunkEmbeddings | null;
};

export function statusText(collections: readonly StatusEntry[]): string {
  if (collections.length === 0) return 'No collection is indexed yet: run index_repo.';
  return collections
    .map((c) => {
      const when =
        c.indexedAt === null
          ? 'never completed'
          : `${new Date(c.indexedAt).toISOString()} (${Math.round((c.ageMs ?? 0) / 1000)} s ago)`;
      const fresh =
        c.freshness === null
          ? ''
          : ` Since then: ${c.freshness.changed} changed, ${c.freshness.missing} missing of ${c.freshness.checked} checked${c.freshness.complete ? '' : ' (check cut short)'}${c.freshness.movedRefs.length > 0 ? `; refs moved: ${c.freshness.movedRefs.join(', ')}` : ''}.`;
      const running =
        c.running === null
          ? ''
          : ` Running job ${c.running.id}: ${c.running.phase} ${c.running.progress ?? '?'}%, ${c.running.files.seen}/${c.running.files.total} files.`;
      const error = c.lastError === null ? '' : ` Last error: ${c.lastError}.`;
      const e = c.embeddings;
      const vectors =
        e === null || e.chunks === 0
          ? ''
          : ` Embeddings (${e.model}): ${e.embedded} of ${e.chunks} chunks${e.pending > 0 ? `, ${e.pending} waiting` : ''}.`;
      return `- ${c.collection} [${c.state}] ${c.root} (${c.mode}): ${c.files} files, ${c.chunks} chunks, ${c.lines} lines; indexed ${when}.${fresh}${running}${vectors}${error}`;
    })
    .join('\n');
}

export function clearText(c: ClearResult): string {
  return `Cleared collection ${c.collection}: ${c.files} files and ${c.chunks} chunks removed${c.cancelledJob === null ? '' : `; job ${c.cancelledJob} was cancelled`}.`;
}
