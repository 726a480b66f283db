// Board filters: team, assignee (both taken from the tasks on the board) and ready-only.
import { useMemo } from 'react';

import type { BoardTask, Filters } from './model.js';

function distinct(values: ReadonlyArray<string | null>): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))].sort();
}

export function FilterBar(props: {
  tasks: readonly BoardTask[];
  filters: Filters;
  onChange(f: Filters): void;
}) {
  const { tasks, filters, onChange } = props;
  const teams = useMemo(() => distinct(tasks.map((t) => t.teamId)), [tasks]);
  const agents = useMemo(() => distinct(tasks.map((t) => t.assigneeAgentId)), [tasks]);
  return (
    <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        Team{' '}
        <select
          value={filters.teamId}
          onChange={(e) => onChange({ ...filters, teamId: e.target.value })}
        >
          <option value="">All teams</option>
          {teams.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        Assignee{' '}
        <select
          value={filters.assignee}
          onChange={(e) => onChange({ ...filters, assignee: e.target.value })}
        >
          <option value="">Anyone</option>
          {agents.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={filters.readyOnly}
          onChange={(e) => onChange({ ...filters, readyOnly: e.target.checked })}
        />{' '}
        Ready only
      </label>
    </form>
  );
}
