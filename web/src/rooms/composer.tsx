// Posts into the open room as `user`: a plain post of kind `user` in a team room, a `text`
// envelope from `user` (stored with kind `user`) in a channel; agents read either with no user
// authority. Keeps the draft when the server refuses, and shows the server's message.
import { type FormEvent, useId, useState } from 'react';

import { api, errorText } from '../api.js';

export function Composer({ roomId, channel }: { roomId: string; channel: boolean }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const hintId = useId();
  const submit = (ev: FormEvent): void => {
    ev.preventDefault();
    if (text.trim() === '' || busy) return;
    setBusy(true);
    api(`/api/rooms/${encodeURIComponent(roomId)}/posts`, { method: 'POST', body: { text } })
      .then(
        () => {
          setText('');
          setError(undefined);
        },
        (err: unknown) => setError(errorText(err)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <form className="inline-form composer" onSubmit={submit}>
      <label>
        Post as user
        <textarea
          rows={2}
          value={text}
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
          }}
        />
      </label>
      <p id={hintId} className="muted small">
        {channel
          ? 'Sent as a text envelope from user. Ctrl+Enter posts.'
          : 'Agents read it as kind=user. Ctrl+Enter posts.'}
      </p>
      <button type="submit" disabled={busy || text.trim() === ''}>
        Post
      </button>
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
