// The index family (spec "Index Tool Family"): index_repo, index_status, clear_index. Thin
// handlers over core.codeIndex (src/code/indexer): the job runs in a worker thread; index_repo
// waits for it up to `wait_seconds` (default 60) sending progress notifications when the
// client asked, then answers with the job as it is (done, failed, or still running).
// Provenance is required (family `index`): every chunk written records who asked.
import {
  chunkEmbeddings,
  clearIndexInput,
  DEFAULT_WAIT_SECONDS,
  indexParamsOf,
  indexRepoInput,
  indexStatusInput,
  type JobStatus,
} from '../../code/index.js';
import type { Core } from '../../core/index.js';
import type { ProgressReporter } from '../tool.js';
import { type ContextFamily, provenancedTool } from './family.js';
import { clearText, jobText, planText, statusText } from './index-text.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/** A progress notification per job update, `progress` only ever growing. */
function jobProgress(progress: ProgressReporter | undefined) {
  if (progress === undefined) return undefined;
  let last = -1;
  return (job: JobStatus) => {
    const done = job.files.seen;
    if (done <= last) return;
    last = done;
    const total = job.files.total > 0 ? job.files.total : undefined;
    progress({
      progress: done,
      ...(total === undefined || total < done ? {} : { total }),
      message: `${job.phase}: ${job.files.indexed} indexed, ${job.files.unchanged} unchanged, ${job.chunks} chunks`,
    });
  };
}

function indexTools(core: Core) {
  const index = core.codeIndex;
  return [
    provenancedTool('index', {
      name: 'index_repo',
      description:
        'Index a directory for search_code and analyze_impact: `action` start (default) indexes the work tree as it is on disk, honouring .gitignore (nested, negations), .git/info/exclude and sensible defaults (dependency folders, build output, binary, minified and lock files); git_index indexes what git tracks at `branches` (with `include_commits`/`depth`). Re-indexing is incremental (size and mtime, then content hash). `dry_run` answers what would be indexed (files, bytes, lines, languages, what is skipped and why, a time estimate) and writes nothing. The job runs in the background; the call waits up to `wait_seconds` (default 60, progress notifications meanwhile) and then answers with the job as it is: poll index_status for a job still running.',
      input: indexRepoInput,
      annotations: {
        title: 'Index a repository',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const started = await index.start(indexParamsOf(a), ctx.provenance);
        if (started.kind === 'plan') {
          return {
            text: planText(started.plan),
            data: { dryRun: true, plan: { ...started.plan } },
          };
        }
        const waitMs = (a.wait_seconds ?? DEFAULT_WAIT_SECONDS) * 1000;
        const onProgress = jobProgress(ctx.progress);
        const job =
          waitMs === 0 || started.job.state === 'done' || started.job.state === 'failed'
            ? started.job
            : await index.wait(started.job.id, {
                timeoutMs: waitMs,
                signal: ctx.signal,
                ...(onProgress === undefined ? {} : { onProgress }),
              });
        const data = { job, alreadyRunning: started.alreadyRunning, message: started.message };
        return { text: jobText(job, started.alreadyRunning), data };
      },
    }),
    provenancedTool('index', {
      name: 'index_status',
      description:
        "The state of each collection (or `collection`): state (empty, indexing, ready, failed), files, chunks, lines, when it was last brought up to date and its age, the running job's progress (%, files seen/indexed/unchanged/removed/skipped with reasons counted, chunks, rate, errors), and freshness: how many indexed files changed or vanished on disk since (a cheap stat check; new files need a re-index to be seen); and the chunk embeddings (how many chunks have a vector from the embedding model, how many wait for the background embedder; null without an embedder).",
      input: indexStatusInput,
      annotations: { title: 'Index status', ...READ_ONLY },
      handler: async (a) => {
        const status = await index.status(a.collection);
        const collections = await Promise.all(
          status.collections.map(async (c) => ({
            ...c,
            freshness: c.indexedAt === null ? null : await index.freshness(c.collection),
            embeddings:
              core.embedder === null
                ? null
                : await chunkEmbeddings(core.store, core.embedder.model, c.collection),
          })),
        );
        return { text: statusText(collections), data: { collections } };
      },
    }),
    provenancedTool('index', {
      name: 'clear_index',
      description:
        'Delete a collection and everything indexed in it (files, chunks, references, commits, vectors). A job running on it is cancelled first. Other collections are untouched.',
      input: clearIndexInput,
      annotations: {
        title: 'Clear an index',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: async (a) => {
        const cleared = await index.clear(a.collection);
        return { text: clearText(cleared), data: { ...cleared } };
      },
    }),
  ];
}

export const indexFamily: ContextFamily = { name: 'index', tools: indexTools };
