// Posts into a team room as `user` (agents receive it as kind=user, never with user
// authority). Keeps the draft when the server refuses, and shows the server's message.
import { type FormEvent, useState } from 'react';

import { api, errorText } from '../api.js';

export function Composer({ roomId }: { roomId: string }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const submit = (ev: FormEvent): void => {
    ev.preventDefault();
    if (text.trim() === '') return;
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
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
          }}
        />
      </label>
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
