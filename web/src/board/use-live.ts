// Live updates: an EventSource on a stream that reconnects with backoff (1 s → 15 s) when it
// drops. A change stream (/api/board/stream, /api/approvals/stream, /api/rooms/stream) calls
// `onChange` (debounced) on every `event` and once per (re)connect; a sequenced feed
// (/api/rooms/:room/stream) passes `resume` to get each event once and reconnect after the last.
import { useEffect, useRef, useState } from 'react';

export type LiveState = 'connecting' | 'live' | 'offline';

/** A sequenced feed: the events' numeric SSE `id:` is the cursor the stream resumes from. */
export interface LiveResume {
  /** The query parameter that carries the cursor on every (re)connect, e.g. `sinceSeq`. */
  param: string;
  /** Each new event's data, in order; an event whose id is not past the cursor is dropped. */
  onEvent(data: string): void;
}

/** `url` with `param=cursor` set. */
function withCursor(url: string, param: string, cursor: number): string {
  const u = new URL(url, window.location.href);
  u.searchParams.set(param, String(cursor));
  return `${u.pathname}${u.search}`;
}

/**
 * Follows `url` and reports the connection state. `onChange` runs (debounced 80 ms) after each
 * `event` and after each (re)connect, so a page that refetches on it never misses a change.
 * With `resume`, each event is handed to `resume.onEvent` once, in order, and every reconnect
 * asks for the events after the last one received (a new `url` starts from the cursor 0).
 */
export function useLive(
  url: string,
  onChange: () => void,
  event = 'board',
  resume?: LiveResume,
): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const latest = useRef({ onChange, resume });
  latest.current = { onChange, resume };
  const param = resume?.param;
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: number | undefined;
    let debounce: number | undefined;
    let delay = 1000;
    let cursor = 0;
    setState('connecting');
    const fire = (): void => {
      window.clearTimeout(debounce);
      debounce = window.setTimeout(() => latest.current.onChange(), 80);
    };
    const onEvent = (ev: MessageEvent<string>): void => {
      if (param === undefined) return fire();
      const id = Number(ev.lastEventId);
      if (!Number.isFinite(id) || id <= cursor) return undefined;
      cursor = id;
      latest.current.resume?.onEvent(ev.data);
      return fire();
    };
    const connect = (): void => {
      source = new EventSource(param === undefined ? url : withCursor(url, param, cursor));
      source.onopen = () => {
        setState('live');
        delay = 1000;
        fire();
      };
      source.addEventListener(event, onEvent);
      source.onerror = () => {
        setState('offline');
        source?.close();
        retry = window.setTimeout(connect, delay);
        delay = Math.min(delay * 2, 15_000);
      };
    };
    connect();
    return () => {
      source?.close();
      window.clearTimeout(retry);
      window.clearTimeout(debounce);
    };
  }, [url, event, param]);
  return state;
}
