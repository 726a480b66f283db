// Live updates: an EventSource on a change stream (/api/board/stream, /api/approvals/stream)
// that calls `onChange` (debounced) on every `event` and once per (re)connect, and reconnects
// with backoff when the stream drops.
import { useEffect, useRef, useState } from 'react';

export type LiveState = 'connecting' | 'live' | 'offline';

export function useLive(url: string, onChange: () => void, event = 'board'): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: number | undefined;
    let debounce: number | undefined;
    let delay = 1000;
    const fire = (): void => {
      window.clearTimeout(debounce);
      debounce = window.setTimeout(() => latest.current(), 80);
    };
    const connect = (): void => {
      source = new EventSource(url);
      source.onopen = () => {
        setState('live');
        delay = 1000;
        fire();
      };
      source.addEventListener(event, fire);
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
  }, [url, event]);
  return state;
}
