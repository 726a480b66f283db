// The audit page's filter form: tool, caller, outcome and a time range. Text filters apply on
// submit (Enter or "Apply") so typing does not fire a request per key.
import { type FormEvent, useState } from 'react';

import type { AuditFilter } from './use-audit.js';

const OUTCOMES = [
  'ok',
  'pass',
  'denied',
  'error',
  'pending',
  'allowed',
  'granted',
  'not_required',
  'expired',
  'cancelled',
  'within_budget',
  'truncated',
  'allow_once',
  'allow_always',
  'deny',
];

function OutcomeSelect(props: { value: string; onChange(value: string): void }) {
  return (
    <label>
      Outcome{' '}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">any</option>
        {OUTCOMES.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

interface Props {
  value: AuditFilter;
  onChange(next: AuditFilter): void;
}

export function AuditFilters({ value, onChange }: Props) {
  const [draft, setDraft] = useState(value);
  const field = (key: keyof AuditFilter, label: string, type = 'text') => (
    <label>
      {label}{' '}
      <input
        type={type}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
      />
    </label>
  );
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    onChange(draft);
  };
  return (
    <form className="filters" aria-label="Audit filters" onSubmit={submit}>
      {field('tool', 'Tool')}
      {field('caller', 'Caller')}
      <OutcomeSelect
        value={draft.outcome}
        onChange={(outcome) => setDraft({ ...draft, outcome })}
      />
      {field('since', 'From', 'datetime-local')}
      {field('until', 'To', 'datetime-local')}
      <button type="submit">Apply</button>
    </form>
  );
}
