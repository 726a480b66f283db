// A room's posts, oldest first: seq, sender, kind (or a channel envelope's type), time, and the
// text agents read (team rooms) or a compact payload (channels). Read-only.
import type { RoomItem } from './use-room-feed.js';

const MAX_PAYLOAD = 240;

/** The post's body as shown: team text without its envelope header, or compact JSON. */
function bodyOf(item: RoomItem): string {
  if (item.wrapped !== undefined) return item.wrapped.slice(item.wrapped.indexOf('\n') + 1);
  const json = JSON.stringify(item.payload ?? {});
  return json.length > MAX_PAYLOAD ? `${json.slice(0, MAX_PAYLOAD)}…` : json;
}

function PostRow({ item }: { item: RoomItem }) {
  const at = new Date(item.createdAt);
  const label = item.type ?? item.kind;
  return (
    <li className={`post post-${item.kind}`} data-seq={item.seq}>
      <div className="post-meta">
        <span className="mono">#{item.seq}</span>
        <span className="who">{item.authorAgentId}</span>
        <span className={`tag kind-${item.kind}`} data-testid="post-kind">
          {label}
        </span>
        {item.to !== undefined && item.to.length > 0 && (
          <span className="muted">to {item.to.join(', ')}</span>
        )}
        <time dateTime={at.toISOString()}>{at.toLocaleTimeString()}</time>
      </div>
      <p className={item.wrapped === undefined ? 'mono post-body' : 'post-body'}>{bodyOf(item)}</p>
    </li>
  );
}

export function PostList({ items }: { items: RoomItem[] }) {
  if (items.length === 0) {
    return <p className="empty">No posts yet. Agents post here with team_chat_post.</p>;
  }
  return (
    <ol className="posts" aria-label="Posts">
      {items.map((item) => (
        <PostRow key={item.seq} item={item} />
      ))}
    </ol>
  );
}
