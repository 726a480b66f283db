// One memory item in a side panel: full content, tags, scope, dates, and for a procedure every
// version (newest first). Edits go through item-edit.tsx; the panel reloads after each. Focus
// moves to its Close button when it opens; Escape closes it.
import { useCallback, useEffect, useRef, useState } from 'react';

import { api, errorText } from '../api.js';
import { DeleteItem, TagEditor } from './item-edit.js';
import { type ItemDetail, type MemoryItem, scopeQuery, type ScopeFilter } from './use-memory.js';

const when = (iso: string): string => new Date(iso).toLocaleString();

function Facts({ item }: { item: MemoryItem }) {
  const scope = [
    item.teamId === null ? 'team: global' : `team: ${item.teamId}`,
    item.agentId === null ? 'agent: global' : `agent: ${item.agentId}`,
  ].join(' · ');
  return (
    <dl className="claim">
      <dt>Kind</dt>
      <dd>{item.version === undefined ? item.kind : `${item.kind} v${item.version}`}</dd>
      <dt>Scope</dt>
      <dd>{scope}</dd>
      <dt>Tags</dt>
      <dd className="item-tags">{item.tags.length === 0 ? 'none' : item.tags.join(', ')}</dd>
      <dt>Created</dt>
      <dd>{when(item.createdAt)}</dd>
      <dt>Updated</dt>
      <dd>{when(item.updatedAt)}</dd>
    </dl>
  );
}

function Versions({ versions }: { versions: MemoryItem[] }) {
  return (
    <section className="drawer-section">
      <h3>Versions</h3>
      <ol className="versions">
        {versions.map((v) => (
          <li key={v.id}>
            <strong>v{v.version}</strong> <span className="muted">{when(v.createdAt)}</span>
            <pre className="description">{v.content}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}

function useItem(id: string, scope: ScopeFilter) {
  const [detail, setDetail] = useState<ItemDetail>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    const path = `/api/memory/items/${encodeURIComponent(id)}?${scopeQuery(scope)}`;
    api<ItemDetail>(path)
      .then((d) => {
        setDetail(d);
        setError(undefined);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [id, scope]);
  useEffect(load, [load]);
  return { detail, error, setError, load };
}

interface PanelProps {
  id: string;
  scope: ScopeFilter;
  onClose: () => void;
  onDeleted: (message: string) => void;
}

export function ItemPanel({ id, scope, onClose, onDeleted }: PanelProps) {
  const { detail, error, setError, load } = useItem(id, scope);
  const [note, setNote] = useState<string>();
  const onChanged = (message: string, deleted: boolean): void => {
    if (deleted) onDeleted(message);
    else setNote(message);
    if (!deleted) load();
  };
  const item = detail?.item;
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [id]);
  return (
    <aside
      className="drawer"
      aria-label="Memory item"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <div className="drawer-head">
        <h2>{item?.title ?? 'Loading…'}</h2>
        <button type="button" ref={close} onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      {error !== undefined && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {note !== undefined && <p role="status">{note}</p>}
      {item !== undefined && (
        <>
          <Facts item={item} />
          <pre className="description item-content">{item.content}</pre>
          <TagEditor key={item.updatedAt} {...{ item, scope, onChanged, onError: setError }} />
          <DeleteItem {...{ item, scope, onChanged, onError: setError }} />
          {detail?.versions !== undefined && <Versions versions={detail.versions} />}
        </>
      )}
    </aside>
  );
}
