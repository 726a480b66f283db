// The rooms the page can open (team rooms and backplane channels), read once on mount and on
// demand; the open room lives in the URL (`/rooms?room=team:t1`) so a reload keeps it.
import { useCallback, useEffect, useState } from 'react';

import { api, errorText } from '../api.js';

export interface RoomSummary {
  roomId: string;
  name: string;
  kind: 'team' | 'channel';
  topic: string;
  members: number;
}

export function useRooms() {
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
  return { rooms, error, reload };
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
