// The rooms page: team rooms and backplane channels on the left (live: a new room appears
// without a reload), the open room's posts live on the right (SSE, reconnecting), and a
// composer where the human posts as `user` into a team room or a channel.
import './rooms.css';

import type { LiveState } from '../board/use-live.js';
import { Composer } from './composer.js';
import { PostList } from './post-list.js';
import { useRoomFeed } from './use-room-feed.js';
import { type RoomSummary, useOpenRoom, useRooms } from './use-rooms.js';

const LIVE_TEXT: Record<LiveState, string> = {
  live: 'Live',
  offline: 'Reconnecting…',
  connecting: 'Connecting…',
};

function RoomLink(props: { room: RoomSummary; open: boolean; onOpen: () => void }) {
  const { room } = props;
  return (
    <li>
      <button
        type="button"
        className="room-link"
        aria-current={props.open ? 'true' : undefined}
        onClick={props.onOpen}
      >
        <span className="room-name">{room.name}</span>
        <span className="muted small">
          {room.kind} · {room.members} member{room.members === 1 ? '' : 's'}
          {room.topic === '' ? '' : ` — ${room.topic}`}
        </span>
      </button>
    </li>
  );
}

function RoomList(props: { openId: string | undefined; onOpen: (id: string) => void }) {
  const { rooms, error, live, reload } = useRooms();
  return (
    <aside className="room-list" aria-label="Room list">
      <div className="toolbar">
        <h2>Rooms</h2>
        <span className={`live ${live}`} data-testid="rooms-live">
          {LIVE_TEXT[live]}
        </span>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      {error !== undefined && (
        <p className="notice error" role="alert">
          Cannot load rooms: {error}
        </p>
      )}
      {rooms === undefined && error === undefined && <p className="muted">Loading…</p>}
      <ul>
        {rooms?.map((r) => (
          <RoomLink
            key={r.roomId}
            room={r}
            open={r.roomId === props.openId}
            onOpen={() => props.onOpen(r.roomId)}
          />
        ))}
      </ul>
    </aside>
  );
}

function OpenRoom({ roomId }: { roomId: string }) {
  const feed = useRoomFeed(roomId);
  const channel = !roomId.startsWith('team:');
  return (
    <section className="room" aria-label={`Room ${roomId}`}>
      <div className="status-line">
        <h2 className="mono">{roomId}</h2>
        <span className={`live ${feed.state}`}>{LIVE_TEXT[feed.state]}</span>
      </div>
      <PostList items={feed.items} channel={channel} />
      <Composer roomId={roomId} channel={channel} />
    </section>
  );
}

export function RoomsPage() {
  const [openId, open] = useOpenRoom();
  return (
    <main className="page rooms-page">
      <h1 className="visually-hidden">Rooms</h1>
      <RoomList openId={openId} onOpen={open} />
      {openId === undefined ? (
        <p className="empty">
          Open a room to follow it live. Team rooms appear once an agent posts or subscribes with
          team_chat_post / team_chat_subscribe; channels come from the backplane.
        </p>
      ) : (
        <OpenRoom key={openId} roomId={openId} />
      )}
    </main>
  );
}
