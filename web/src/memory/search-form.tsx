// The memory search form: query, mode switch (fts / vector / hybrid) and the scope filter.
import { type FormEvent, useState } from 'react';

import { type Mode, MODES, type SearchForm as Form } from './use-memory.js';

function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (m: Mode) => void }) {
  return (
    <fieldset className="modes">
      <legend>Mode</legend>
      {MODES.map((m) => (
        <label key={m}>
          <input
            type="radio"
            name="mode"
            value={m}
            checked={mode === m}
            onChange={() => onChange(m)}
          />
          {m}
        </label>
      ))}
    </fieldset>
  );
}

const EMPTY: Form = { query: '', mode: 'hybrid', teamId: '', agentId: '' };

export function SearchForm({ busy, onSearch }: { busy: boolean; onSearch: (f: Form) => void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const set = (patch: Partial<Form>): void => setForm((f) => ({ ...f, ...patch }));
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (form.query.trim() !== '') onSearch(form);
  };
  return (
    <form className="memory-search" role="search" onSubmit={submit}>
      <label>
        Search memory
        <input type="search" value={form.query} onChange={(e) => set({ query: e.target.value })} />
      </label>
      <ModeSwitch mode={form.mode} onChange={(mode) => set({ mode })} />
      <label>
        Team
        <input value={form.teamId} onChange={(e) => set({ teamId: e.target.value })} />
      </label>
      <label>
        Agent
        <input value={form.agentId} onChange={(e) => set({ agentId: e.target.value })} />
      </label>
      <button type="submit" disabled={busy || form.query.trim() === ''}>
        Search
      </button>
    </form>
  );
}
