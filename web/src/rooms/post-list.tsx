// A room's posts, oldest first: seq, sender, kind and (for a channel) the envelope's type and
// recipients, time, and the text agents read (team rooms), a text envelope's text, or a compact
// payload (other envelopes). Read-only; new posts are announced politely (a log).
import type { RoomItem } from './use-room-feed.js';

const MAX_PAYLOAD = 240;

/** The post's body as shown: team text without its envelope header, a text, or compact JSON. */
function bodyOf(item: RoomItem): string {
  if (item.wrapped !== undefined) return item.wrapped.slice(item.wrapped.indexOf('\n') + 1);
  const text = item.payload?.['text'];
  if (item.type === 'text' && typeof text === 'string') return text;
  const json = JSON.stringify(item.payload ?? {});
  return json.length > MAX_PAYLOAD ? `${json.slice(0, MAX_PAYLOAD)}…` : json;
}

function PostRow({ item }: { item: RoomItem }) {
  const at = new Date(item.createdAt);
  const plain = item.wrapped !== undefined || item.type === 'text';
  return (
    <li className={`post post-${item.kind}`} data-seq={item.seq}>
      <div className="post-meta">
        <span className="mono">#{item.seq}</span>
        <span className="who">{item.authorAgentId}</span>
        {item.type !== undefined && (
          <span className="tag" data-testid="post-type" title="envelope type">
            {item.type}
          </span>
        )}
        {item.kind !== 'envelope' && (
          <span className={`tag kind-${item.kind}`} data-testid="post-kind" title="post kind">
            {item.kind}
          </span>
        )}
        {item.to !== undefined && item.to.length > 0 && (
          <span className="muted">to {item.to.join(', ')}</span>
        )}
        <time dateTime={item.createdAt}>{at.toLocaleTimeString()}</time>
      </div>
      <p className={plain ? 'post-body' : 'mono post-body'}>{bodyOf(item)}</p>
    </li>
  );
}

export function PostList({ items, channel }: { items: RoomItem[]; channel: boolean }) {
  return (
    <div role="log" aria-label="Posts" aria-live="polite">
      {items.length === 0 ? (
        <p className="empty">
          {channel
            ? 'No messages yet. Agents post here with send_message.'
            : 'No posts yet. Agents post here with team_chat_post.'}
        </p>
      ) : (
        <ol className="posts">
          {items.map((item) => (
            <PostRow key={item.seq} item={item} />
          ))}
        </ol>
      )}
    </div>
  );
}
