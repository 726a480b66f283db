// Starts an index job in a worker thread. The worker's code is one small script that imports the
// job module by URL: `job-worker.js` next to this file in dist/, or `job-worker.ts` (through tsx's
// loader, registered inside the worker) when running from sources under vitest or tsx. Whatever
// the worker prints goes to stderr, never stdout (stdio servers speak the protocol there).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { JobRow } from './job-rows.js';
import type { FromJobWorker, ToJobWorker, WorkerJob } from './job-worker.js';

const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  try {
    if (workerData.loader !== null) {
      const tsx = await import(workerData.loader);
      tsx.register();
    }
    const mod = await import(workerData.entry);
    await mod.runInWorker(workerData.job, parentPort);
  } catch (err) {
    parentPort.postMessage({ type: 'crashed', message: String((err && err.stack) || err) });
  }
})();
`;

/**
 * The ES module build of `tsx/esm/api` (its CommonJS build resolves its own loader wrongly when
 * imported), read from tsx's export map. tsx is a dev dependency: only sources need it.
 */
function tsxApiUrl(here: string): string {
  const require = createRequire(here);
  const manifest = require.resolve('tsx/package.json');
  const pkg = require(manifest) as { exports: Record<string, { import?: { default?: string } }> };
  const target = pkg.exports['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs';
  return new URL(target, pathToFileURL(manifest)).href;
}

/** The job module's URL and, from sources, tsx's loader URL. */
function entryPoint(): { entry: string; loader: string | null } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { entry: new URL('./job-worker.js', here).href, loader: null };
  return { entry: new URL('./job-worker.ts', here).href, loader: tsxApiUrl(here) };
}

/** A job running in a worker thread. */
export interface JobWorker {
  /** Settles with the final row, or null when the worker died before reporting one. */
  readonly done: Promise<{ row: JobRow | null; crash: string | null }>;
  /** Asks the job to stop at its next batch (it ends `cancelled`). */
  cancel(message: string): void;
  terminate(): Promise<void>;
}

/** Spawns the worker for `job`; `onProgress` gets every row it reports. */
export function spawnJobWorker(job: WorkerJob, onProgress: (row: JobRow) => void): JobWorker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { ...entryPoint(), job },
  });
  let crash: string | null = null;
  let last: JobRow | null = null;
  const done = new Promise<{ row: JobRow | null; crash: string | null }>((resolve) => {
    worker.on('message', (msg: FromJobWorker) => {
      if (msg.type === 'crashed') crash = msg.message;
      else if (msg.type === 'done') {
        last = msg.row;
        void worker.terminate();
      } else onProgress(msg.row);
    });
    worker.on('error', (err) => {
      crash = err.stack ?? err.message;
    });
    worker.on('exit', (code) => {
      if (last === null && crash === null) crash = `the index worker exited (code ${code})`;
      resolve({ row: last, crash });
    });
  });
  return {
    done,
    cancel: (message) => worker.postMessage({ type: 'cancel', message } satisfies ToJobWorker),
    terminate: async () => {
      await worker.terminate();
    },
  };
}
