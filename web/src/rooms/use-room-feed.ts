// A room's posts, live: an EventSource on /api/rooms/:room/stream that appends each post once
// (by seq) and, when the stream drops, reconnects with backoff from the last seq it holds.
import { useEffect, useState } from 'react';

import type { LiveState } from '../board/use-live.js';

export interface RoomItem {
  seq: number;
  authorAgentId: string;
  kind: string;
  wrapped?: string;
  type?: string;
  to?: string[];
  payload?: Record<string, unknown>;
  createdAt: number;
}

export interface RoomFeed {
  items: RoomItem[];
  state: LiveState;
}

const streamUrl = (roomId: string, sinceSeq: number): string =>
  `/api/rooms/${encodeURIComponent(roomId)}/stream?sinceSeq=${sinceSeq}&limit=500`;

/** Live posts of `roomId` (empty and `connecting` while no room is open). */
export function useRoomFeed(roomId: string | undefined): RoomFeed {
  const [items, setItems] = useState<RoomItem[]>([]);
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    setItems([]);
    setState('connecting');
    if (roomId === undefined) return undefined;
    let source: EventSource | undefined;
    let retry: number | undefined;
    let delay = 1000;
    let last = 0;
    const onPost = (ev: MessageEvent<string>): void => {
      const item = JSON.parse(ev.data) as RoomItem;
      if (item.seq <= last) return;
      last = item.seq;
      setItems((prev) => [...prev, item]);
    };
    const connect = (): void => {
      source = new EventSource(streamUrl(roomId, last));
      source.onopen = () => {
        setState('live');
        delay = 1000;
      };
      source.addEventListener('post', onPost);
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
    };
  }, [roomId]);
  return { items, state };
}
