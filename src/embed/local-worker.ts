// Runs the local model in a worker thread: tfjs's ~250 ms synchronous module load and its console
// output stay off the main thread, so an MCP handshake is never delayed and stdout stays protocol.
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { EmbedError } from './errors.js';
import type { EmbedPriority } from './types.js';

/** Files the worker imports: the runtime (`initModel`) and the weights (`modelSource`). */
export interface ModelModules {
  embeddings: string;
  weights: string;
}

/**
 * The worker's code. It uses only dynamic `import()`, so it runs as a script or as a module
 * whatever flags the process was started with, from `src/` (tsx, vitest) and `dist/` alike.
 * First it turns its stdout and stderr into `log` messages: a worker's stdout would otherwise be
 * the process's stdout, and Node's `stdout: true` option keeps the parent alive while read.
 * Then it loads and warms the model, and answers `{ id, texts, background }` one at a time with
 * a flat Float32Array (transferred, not copied): every waiting interactive call before any
 * waiting background one (the call already running always finishes first).
 */
const WORKER_SOURCE = `(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const forward = (chunk, encoding, callback) => {
    parentPort.postMessage({ type: 'log', text: String(chunk) });
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
  process.stdout.write = forward;
  process.stderr.write = forward;
  const text = (err) => String((err && err.message) || err);
  const named = async (url, name) => {
    const mod = await import(url);
    return mod[name] ?? (mod.default && mod.default[name]);
  };
  async function load() {
    const initModel = await named(workerData.embeddings, 'initModel');
    const modelSource = await named(workerData.weights, 'modelSource');
    const model = await initModel(modelSource);
    await model.embed(['warm up']);
    return model;
  }
  async function run(model, { id, texts }) {
    try {
      const rows = await model.embed(texts);
      const dims = rows.length === 0 ? 0 : rows[0].length;
      const flat = new Float32Array(rows.length * dims);
      rows.forEach((row, i) => flat.set(row, i * dims));
      parentPort.postMessage({ type: 'result', id, dims, flat }, [flat.buffer]);
    } catch (err) {
      parentPort.postMessage({ type: 'error', id, message: text(err) });
    }
  }
  const urgent = [];
  const later = [];
  let busy = false;
  async function pump(model) {
    if (busy) return;
    busy = true;
    while (urgent.length > 0 || later.length > 0) {
      // One turn of the event loop first: messages that came in during the last call are
      // only delivered then, and a query among them must be seen before the next pick.
      await new Promise((resolve) => setImmediate(resolve));
      await run(model, urgent.shift() ?? later.shift());
    }
    busy = false;
  }
  try {
    const model = await load();
    parentPort.on('message', (msg) => {
      (msg.background ? later : urgent).push(msg);
      void pump(model);
    });
    parentPort.postMessage({ type: 'ready' });
  } catch (err) {
    parentPort.postMessage({ type: 'failed', message: text(err) });
  }
})();
`;

type FromWorker =
  | { type: 'log'; text: string }
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; dims: number; flat: Float32Array }
  | { type: 'error'; id: number; message: string };

interface Pending {
  resolve(rows: Float32Array[]): void;
  reject(err: Error): void;
}

/** A running model worker. It never keeps the process alive on its own. */
export interface ModelWorker {
  /** Settles once the model is loaded and warmed; rejects with EmbedError `unavailable`. */
  readonly ready: Promise<void>;
  /** Raw model rows (not yet normalised), one per text; `background` calls wait for the rest. */
  embed(texts: readonly string[], priority?: EmbedPriority): Promise<Float32Array[]>;
  /** Keeps the process alive until the returned release function is called. */
  hold(): () => void;
  terminate(): Promise<void>;
}

/** Splits the flat answer into one fresh Float32Array per row. */
function rowsOf(flat: Float32Array, dims: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let i = 0; dims > 0 && i < flat.length; i += dims) rows.push(flat.slice(i, i + dims));
  return rows;
}

/** Starts the worker thread; it does not keep the process alive until someone `hold()`s it. */
function startWorker(modules: ModelModules): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // The process's own flags (`--import tsx`, `--input-type`) mean nothing to this code.
    execArgv: [],
    workerData: {
      embeddings: pathToFileURL(modules.embeddings).href,
      weights: pathToFileURL(modules.weights).href,
    },
  });
  worker.unref();
  return worker;
}

/** A promise with its settle functions; its rejection is never reported as unhandled. */
function deferred(): { promise: Promise<void>; resolve(): void; reject(err: Error): void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Starts a worker that loads the model. What the model prints goes to `diagnostics`, never to
 * the process's stdout. `onGone` runs once if the worker dies (crash, failed load, exit,
 * terminate); every pending call then rejects with EmbedError `unavailable`.
 */
export function spawnModelWorker(
  modules: ModelModules,
  diagnostics: Writable,
  onGone: (err: EmbedError) => void,
): ModelWorker {
  const worker = startWorker(modules);
  const loaded = deferred();
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let holds = 0;
  let gone = false;

  function die(err: EmbedError): void {
    if (gone) return;
    gone = true;
    loaded.reject(err);
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    void worker.terminate();
    onGone(err);
  }

  function answer(msg: Extract<FromWorker, { id: number }>): void {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.type === 'result') p?.resolve(rowsOf(msg.flat, msg.dims));
    else p?.reject(unavailable(`the local model failed: ${msg.message}`));
  }

  worker.on('message', (msg: FromWorker) => {
    if (msg.type === 'log') diagnostics.write(msg.text);
    else if (msg.type === 'ready') loaded.resolve();
    else if (msg.type === 'failed')
      die(unavailable(`the local model failed to load: ${msg.message}`));
    else answer(msg);
  });
  worker.on('error', (err) =>
    die(unavailable(`the local model worker crashed: ${err.message}`, err)),
  );
  worker.on('exit', (code) => die(unavailable(`the local model worker exited (code ${code})`)));

  return {
    ready: loaded.promise,
    embed(texts, priority = 'interactive') {
      if (gone) return Promise.reject(unavailable('the local model worker is gone'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, texts, background: priority === 'background' });
      });
    },
    hold() {
      if (holds++ === 0) worker.ref();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--holds === 0) worker.unref();
      };
    },
    async terminate() {
      die(unavailable('the local embedder is closed'));
      await worker.terminate();
    },
  };
}

function unavailable(message: string, cause?: unknown): EmbedError {
  return new EmbedError(
    'unavailable',
    `embed: ${message}`,
    cause === undefined ? undefined : { cause },
  );
}
