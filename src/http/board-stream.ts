// Live board changes for the dashboard: `GET /api/board/stream` (Server-Sent Events). One
// shared poller per HTTP service reads the board's change mark every `intervalMs` while at
// least one client listens (other processes write the same file, so in-process hooks would
// miss their changes), and at once on a wake-up (an approval signal); each change is one
// `board` event, including a task's pending approval appearing or going. No task data rides
// the stream: the page refetches what it shows.
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { Board } from '../board/index.js';
import type { Broker } from '../broker/index.js';
import { send } from './sse.js';

export interface BoardWatch {
  /** Calls `onChange(mark)` after each change until the returned function is called. */
  subscribe(onChange: (mark: string) => void): () => void;
}

/**
 * What the board page shows changes when the board does or when a task-linked approval starts
 * or stops pending (decided, expired, cancelled): the mark covers both.
 */
export function boardViewMark(
  board: Pick<Board, 'changeMark'>,
  approvals: Pick<Broker, 'pendingApprovalsByTask' | 'taskApprovalsMark'>,
): Pick<Board, 'changeMark'> {
  return {
    async changeMark() {
      // Pending ids catch an expiry nobody wrote; the counter catches a call that started
      // waiting and was decided between two polls.
      const byTask = await approvals.pendingApprovalsByTask();
      const ids = [...byTask.values()].flatMap((marks) => marks.map((m) => m.id));
      const written = await approvals.taskApprovalsMark();
      return `${await board.changeMark()}|${written}|${ids.join(',')}`;
    },
  };
}

export interface BoardWatchOptions {
  intervalMs?: number;
  /**
   * A wake-up (a store signal) that makes the poller read the mark at once instead of at the
   * next interval; subscribed while someone listens. Returns its unsubscribe.
   */
  wake?: ((listener: () => void) => () => void) | undefined;
  onError(err: unknown): void;
}

/** Builds the shared poller; it runs only while someone is subscribed. */
export function createBoardWatch(
  board: Pick<Board, 'changeMark'>,
  options: BoardWatchOptions,
): BoardWatch {
  const listeners = new Set<(mark: string) => void>();
  const intervalMs = options.intervalMs ?? 250;
  let timer: NodeJS.Timeout | undefined;
  let last: string | undefined;
  let reading = false;
  let again = false;
  let unwake: (() => void) | undefined;

  async function tick(): Promise<void> {
    timer = undefined;
    reading = true;
    try {
      const mark = await board.changeMark();
      if (last !== undefined && mark !== last) for (const fn of listeners) fn(mark);
      last = mark;
    } catch (err) {
      options.onError(err);
    }
    reading = false;
    if (listeners.size === 0) return stopWaking();
    timer = setTimeout(() => void tick(), again ? 0 : intervalMs);
    again = false;
  }

  /** A signal: read now (or right after the read in flight). */
  function woken(): void {
    if (reading) again = true;
    else if (timer !== undefined) {
      clearTimeout(timer);
      void tick();
    }
  }

  function stopWaking(): void {
    unwake?.();
    unwake = undefined;
  }

  return {
    subscribe(onChange) {
      listeners.add(onChange);
      if (timer === undefined && !reading) {
        last = undefined;
        timer = setTimeout(() => void tick(), 0);
      }
      unwake ??= options.wake?.(woken);
      return () => listeners.delete(onChange);
    },
  };
}

/**
 * Streams one `event` (default `board`) per change until the client leaves; a comment line
 * keeps idle streams open. The approvals stream reuses it with `approvals`.
 */
export async function streamBoard(
  req: IncomingMessage,
  res: ServerResponse,
  watch: BoardWatch,
  keepAliveMs: number,
  event = 'board',
): Promise<void> {
  const abort = new AbortController();
  req.once('close', () => abort.abort());
  res.once('close', () => abort.abort());
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let seq = 0;
  let queue = Promise.resolve();
  const push = (chunk: string): void => {
    queue = queue.then(() => send(res, chunk, abort.signal)).catch(() => abort.abort());
  };
  const stop = watch.subscribe((mark) =>
    push(`id: ${++seq}\nevent: ${event}\ndata: ${JSON.stringify({ mark })}\n\n`),
  );
  const keepAlive = setInterval(() => push(': keep-alive\n\n'), keepAliveMs);
  push(`retry: 2000\n: ${event}\n\n`);
  await new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve()));
  stop();
  clearInterval(keepAlive);
  res.end();
}
