// Index jobs in worker threads, one job per thread at a time (a thread whose job has its final
// row and is only closing its connection may take the next). An idle thread is kept `idleMs` for
// the next job, grammars loaded, so a watcher's small re-index skips a thread start. The thread
// runs one small script that imports the job module by URL: `job-worker.js` beside this file in
// dist/, or `job-worker.ts` through tsx's loader (registered inside the thread) when running from
// sources under vitest or tsx. What a thread prints goes to stderr, never stdout.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { JobRow } from './job-rows.js';
import type { FromJobWorker, ToJobWorker, WorkerJob } from './job-worker.js';

const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
  try {
    if (workerData.loader !== null) (await import(workerData.loader)).register();
    const mod = await import(workerData.entry);
    mod.serveJobs(parentPort);
    parentPort.postMessage({ type: 'ready' });
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

/** How a job run by the pool ended: its final row, or why the thread could not say. */
export interface WorkerOutcome {
  row: JobRow | null;
  crash: string | null;
}

/** A job running in a pool thread. */
export interface PooledJob {
  readonly done: Promise<WorkerOutcome>;
  /** Asks the job to stop at its next batch (it ends `cancelled`). */
  cancel(message: string): void;
  /** Ends the thread (for a job that does not stop when asked). */
  terminate(): Promise<void>;
}

interface SlotJob {
  onProgress: (row: JobRow) => void;
  settle(o: WorkerOutcome): void;
  /** Its row is final; the thread is only closing its connection. */
  finishing: boolean;
}

interface Slot {
  worker: Worker;
  jobs: Map<string, SlotJob>;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  gone: boolean;
}

/** A thread can take a job when every job on it has its final row (it may still be closing). */
const available = (s: Slot): boolean => !s.gone && [...s.jobs.values()].every((j) => j.finishing);

export class WorkerPool {
  readonly #idleMs: number;
  readonly #slots = new Set<Slot>();

  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  #message(slot: Slot, msg: FromJobWorker): void {
    if (msg.type === 'crashed') return this.#end(slot, msg.message);
    const job = slot.jobs.get(msg.jobId);
    if (job === undefined) return;
    if (msg.type === 'progress') {
      job.finishing = msg.row.state !== 'running' && msg.row.state !== 'queued';
      return job.onProgress(msg.row);
    }
    slot.jobs.delete(msg.jobId);
    job.settle(
      msg.type === 'done' ? { row: msg.row, crash: null } : { row: null, crash: msg.message },
    );
    if (slot.jobs.size === 0) this.#idle(slot);
  }

  #end(slot: Slot, crash: string): void {
    if (slot.gone) return;
    slot.gone = true;
    this.#slots.delete(slot);
    if (slot.idleTimer !== undefined) clearTimeout(slot.idleTimer);
    for (const job of slot.jobs.values()) job.settle({ row: null, crash });
    slot.jobs.clear();
  }

  #spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: entryPoint(),
    });
    const slot: Slot = { worker, jobs: new Map(), idleTimer: undefined, gone: false };
    worker.on('message', (msg: FromJobWorker | { type: 'ready' }) => {
      if (msg.type !== 'ready') this.#message(slot, msg);
    });
    worker.on('error', (err) => this.#end(slot, err.stack ?? err.message));
    worker.on('exit', (code) => this.#end(slot, `the index worker exited (code ${code})`));
    this.#slots.add(slot);
    return slot;
  }

  /** An idle thread waits `idleMs` for another job, without keeping the process alive. */
  #idle(slot: Slot): void {
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => void slot.worker.terminate(), this.#idleMs);
    slot.idleTimer.unref();
  }

  /** Runs `job` on an available thread (or a new one); `onProgress` gets every row it reports. */
  run(job: WorkerJob, onProgress: (row: JobRow) => void): PooledJob {
    const slot = [...this.#slots].find(available) ?? this.#spawn();
    if (slot.idleTimer !== undefined) clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
    slot.worker.ref();
    const done = new Promise<WorkerOutcome>((settle) => {
      slot.jobs.set(job.jobId, { onProgress, settle, finishing: false });
    });
    slot.worker.postMessage({ type: 'run', job } satisfies ToJobWorker);
    return {
      done,
      cancel: (message) =>
        slot.worker.postMessage({
          type: 'cancel',
          jobId: job.jobId,
          message,
        } satisfies ToJobWorker),
      terminate: async () => {
        await slot.worker.terminate();
      },
    };
  }

  /** Threads alive now (busy or idle). */
  get size(): number {
    return this.#slots.size;
  }

  /** Ends every thread (running jobs settle as crashed: stop their rows first). */
  async close(): Promise<void> {
    await Promise.all([...this.#slots].map((s) => s.worker.terminate()));
  }
}
