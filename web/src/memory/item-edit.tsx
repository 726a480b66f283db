// The opened item's writes: replace its tags, and soft-delete it after an inline confirmation
// (focus moves to its Cancel, and back to "Delete…" when cancelled).
import { type FormEvent, useEffect, useRef, useState } from 'react';

import { api, errorText } from '../api.js';
import { type MemoryItem, scopeQuery, type ScopeFilter } from './use-memory.js';

interface EditProps {
  item: MemoryItem;
  scope: ScopeFilter;
  onChanged: (message: string, deleted: boolean) => void;
  onError: (message: string) => void;
}

const parseTags = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

export function TagEditor({ item, scope, onChanged, onError }: EditProps) {
  const [text, setText] = useState(item.tags.join(', '));
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const body = {
      tags: parseTags(text),
      ...(scope.teamId.trim() === '' ? {} : { scopeTeamId: scope.teamId.trim() }),
      ...(scope.agentId.trim() === '' ? {} : { scopeAgentId: scope.agentId.trim() }),
    };
    api(`/api/memory/items/${encodeURIComponent(item.id)}/tags`, { method: 'POST', body })
      .then(() => onChanged('Tags saved.', false))
      .catch((err: unknown) => onError(errorText(err)));
  };
  return (
    <form className="inline-form" onSubmit={submit}>
      <label>
        Tags (comma-separated)
        <input value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <button type="submit">Save tags</button>
    </form>
  );
}

export function DeleteItem({ item, scope, onChanged, onError }: EditProps) {
  const [asking, setAsking] = useState(false);
  const ask = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    (asking ? cancel : ask).current?.focus();
  }, [asking]);
  const setAsk = (on: boolean): void => {
    moved.current = true;
    setAsking(on);
  };
  const remove = (): void => {
    const path = `/api/memory/items/${encodeURIComponent(item.id)}?${scopeQuery(scope)}`;
    api(path, { method: 'DELETE' })
      .then(() => onChanged(`Deleted “${item.title}”.`, true))
      .catch((err: unknown) => onError(errorText(err)));
  };
  if (!asking) {
    return (
      <button type="button" className="danger" ref={ask} onClick={() => setAsk(true)}>
        Delete…
      </button>
    );
  }
  return (
    <p
      className="confirm"
      role="group"
      aria-label="Confirm delete"
      onKeyDown={(e) => e.key === 'Escape' && setAsk(false)}
    >
      Delete this {item.kind}? Search, browse and agents will no longer see it.{' '}
      <button type="button" className="danger" onClick={remove}>
        Yes, delete
      </button>{' '}
      <button type="button" ref={cancel} onClick={() => setAsk(false)}>
        Cancel
      </button>
    </p>
  );
}
