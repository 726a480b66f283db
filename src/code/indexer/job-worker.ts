// The worker thread's side of an index job: opens its own connection to the same database file,
// runs the job, and posts each progress save and the final row to the thread that spawned it.
// A `cancel` message stops the job at its next batch. Loaded only inside a worker.
import type { MessagePort } from 'node:worker_threads';

import { openSqliteStore } from '../../store/index.js';
import type { JobRow } from './job-rows.js';
import { JobCancelledError, runJob, type RunJobInput } from './run-job.js';

/** The serialisable part of a job, as the spawning thread hands it over. */
export type WorkerJob = Omit<RunJobInput, 'store' | 'clock' | 'onProgress' | 'signal'> & {
  location: string;
};

/** Messages the worker posts. */
export type FromJobWorker =
  | { type: 'progress'; row: JobRow }
  | { type: 'done'; row: JobRow }
  | { type: 'crashed'; message: string };

/** Messages the worker reads. */
export interface ToJobWorker {
  type: 'cancel';
  message: string;
}

/** Runs `job` to its end, closes the store, then posts the final row on `port`. */
export async function runInWorker(job: WorkerJob, port: MessagePort): Promise<void> {
  const controller = new AbortController();
  port.on('message', (msg: ToJobWorker) => {
    if (msg.type === 'cancel') controller.abort(new JobCancelledError(msg.message));
  });
  const { location, ...rest } = job;
  const store = await openSqliteStore(location);
  let row: JobRow;
  try {
    row = await runJob({
      ...rest,
      store,
      clock: Date.now,
      signal: controller.signal,
      onProgress: (r) => port.postMessage({ type: 'progress', row: r } satisfies FromJobWorker),
    });
  } finally {
    await store.close();
    port.removeAllListeners('message');
  }
  // Last: the spawning thread terminates the worker when it reads this (a loaded grammar's
  // WebAssembly runtime can keep a thread's event loop alive after its work is done).
  port.postMessage({ type: 'done', row } satisfies FromJobWorker);
}
