// The memory page: search facts and procedures (fts / vector / hybrid) within an explicit
// scope, open one to read, tag or delete it. The dashboard user acts as the operator.
import { useRef, useState } from 'react';

import '../ops.css';

import { ItemPanel } from './item-panel.js';
import { Results } from './results.js';
import { SearchForm } from './search-form.js';
import { type ScopeFilter, useMemorySearch } from './use-memory.js';

const GLOBAL: ScopeFilter = { teamId: '', agentId: '' };

function Intro() {
  return (
    <p className="empty">
      Search what agents saved with <code>memory_save</code>: facts and procedures. Open one to read
      it whole, tag it or delete it.
    </p>
  );
}

export function MemoryPage() {
  const search = useMemorySearch();
  const [open, setOpen] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const scope = search.last ?? GLOBAL;
  const heading = useRef<HTMLHeadingElement>(null);
  /** Closes the panel and gives focus back to the hit that opened it (or the heading). */
  const closePanel = (): void => {
    const hit = document.querySelector<HTMLButtonElement>(
      `[data-memory-id="${CSS.escape(open ?? '')}"] .hit-title`,
    );
    setOpen(undefined);
    (hit ?? heading.current)?.focus();
  };
  const onDeleted = (message: string): void => {
    setOpen(undefined);
    setNotice(message);
    heading.current?.focus();
    void search.rerun();
  };
  return (
    <main className="page">
      <div className="status-line">
        <h1 tabIndex={-1} ref={heading}>
          Memory
        </h1>
        <span className="muted">Empty team and agent = global items only.</span>
        {notice !== undefined && <span role="status">{notice}</span>}
      </div>
      <SearchForm busy={search.busy} onSearch={(f) => void search.run(f)} />
      {search.error !== undefined && (
        <p className="notice error" role="alert">
          Search failed: {search.error}
        </p>
      )}
      {search.reply === undefined && search.error === undefined && <Intro />}
      {search.reply !== undefined && <Results reply={search.reply} onOpen={setOpen} />}
      {open !== undefined && (
        <ItemPanel id={open} scope={scope} onClose={closePanel} onDeleted={onDeleted} />
      )}
    </main>
  );
}
