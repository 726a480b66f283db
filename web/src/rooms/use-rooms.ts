// The rooms the page can open (team rooms and backplane channels), live: re-read on every
// `rooms` event of /api/rooms/stream (a new channel or team room, a topic or member change) and
// on every (re)connect. The open room lives in the URL (`/rooms?room=team:t1`).
import { useCallback, useEffect, useState } from 'react';

import type { RoomSummary } from '../../../src/rooms/model.js';
import { api, errorText } from '../api.js';
import { type LiveState, useLive } from '../board/use-live.js';

export type { RoomSummary };

export interface RoomList {
  rooms: RoomSummary[] | undefined;
  error: string | undefined;
  live: LiveState;
  reload(): void;
}

export function useRooms(): RoomList {
  const [rooms, setRooms] = useState<RoomSummary[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const reload = useCallback(() => {
    api<{ rooms: RoomSummary[] }>('/api/rooms').then(
      (r) => {
        setRooms(r.rooms);
        setError(undefined);
      },
      (err: unknown) => setError(errorText(err)),
    );
  }, []);
  useEffect(reload, [reload]);
  const live = useLive('/api/rooms/stream', reload, 'rooms');
  return { rooms, error, live, reload };
}

/** The open room id, kept in `?room=`. */
export function useOpenRoom(): [string | undefined, (roomId: string) => void] {
  const read = (): string | undefined =>
    new URLSearchParams(window.location.search).get('room') ?? undefined;
  const [room, setRoom] = useState(read);
  useEffect(() => {
    const onPop = (): void => setRoom(read());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const open = useCallback((roomId: string) => {
    window.history.pushState(null, '', `/rooms?room=${encodeURIComponent(roomId)}`);
    setRoom(roomId);
  }, []);
  return [room, open];
}
