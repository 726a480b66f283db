// A room's posts, live: useLive on /api/rooms/:room/stream with a resume cursor, so each post is
// appended once (by seq) and a dropped stream reconnects with backoff from the last seq held.
import { useEffect, useState } from 'react';

import type { RoomItem as ModelItem } from '../../../src/rooms/model.js';
import { type LiveState, useLive } from '../board/use-live.js';
import type { Wire } from '../wire.js';

export type RoomItem = Wire<ModelItem>;

export interface RoomFeed {
  items: RoomItem[];
  state: LiveState;
}

const streamUrl = (roomId: string): string =>
  `/api/rooms/${encodeURIComponent(roomId)}/stream?limit=500`;

const ignore = (): void => undefined;

/** Live posts of `roomId`, oldest first (the list restarts empty when the room changes). */
export function useRoomFeed(roomId: string): RoomFeed {
  const [items, setItems] = useState<RoomItem[]>([]);
  useEffect(() => setItems([]), [roomId]);
  const state = useLive(streamUrl(roomId), ignore, 'post', {
    param: 'sinceSeq',
    onEvent: (data) => {
      const item = JSON.parse(data) as RoomItem;
      setItems((prev) => [...prev, item]);
    },
  });
  return { items, state };
}
