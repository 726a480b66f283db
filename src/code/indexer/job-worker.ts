// The worker thread's side of index jobs: runs each job it is sent (one at a time) on its own
// connection to the same database, and posts each progress save and the final row to the
// thread that spawned it. A `cancel` message stops a job at its next batch. The thread stays up
// between jobs (grammars stay loaded) until the pool terminates it. Loaded only inside a worker.
import type { MessagePort } from 'node:worker_threads';

import { openStoreAt } from '../../store/index.js';
import type { JobRow } from './job-rows.js';
import { JobCancelledError, runJob, type RunJobInput } from './run-job.js';

/** The serialisable part of a job, as the spawning thread hands it over. */
export type WorkerJob = Omit<RunJobInput, 'store' | 'clock' | 'onProgress' | 'signal'> & {
  location: string;
};

/** Messages the worker posts. */
export type FromJobWorker =
  | { type: 'progress'; jobId: string; row: JobRow }
  | { type: 'done'; jobId: string; row: JobRow }
  | { type: 'failed'; jobId: string; message: string }
  | { type: 'crashed'; message: string };

/** Messages the worker reads. */
export type ToJobWorker =
  { type: 'run'; job: WorkerJob } | { type: 'cancel'; jobId: string; message: string };

async function runOne(job: WorkerJob, port: MessagePort, signal: AbortSignal): Promise<void> {
  const { location, ...rest } = job;
  const store = await openStoreAt(location);
  let row: JobRow;
  try {
    row = await runJob({
      ...rest,
      store,
      clock: Date.now,
      signal,
      onProgress: (r) =>
        port.postMessage({ type: 'progress', jobId: job.jobId, row: r } satisfies FromJobWorker),
    });
  } finally {
    await store.close();
  }
  port.postMessage({ type: 'done', jobId: job.jobId, row } satisfies FromJobWorker);
}

/** Serves jobs posted on `port` until the thread is terminated. */
export function serveJobs(port: MessagePort): void {
  const running = new Map<string, AbortController>();
  port.on('message', (msg: ToJobWorker) => {
    if (msg.type === 'cancel') {
      running.get(msg.jobId)?.abort(new JobCancelledError(msg.message));
      return;
    }
    const controller = new AbortController();
    running.set(msg.job.jobId, controller);
    runOne(msg.job, port, controller.signal)
      .catch((err: unknown) => {
        const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
        port.postMessage({ type: 'failed', jobId: msg.job.jobId, message } satisfies FromJobWorker);
      })
      .finally(() => running.delete(msg.job.jobId));
  });
}
