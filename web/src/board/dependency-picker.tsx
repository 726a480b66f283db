// The drawer's "Add a dependency" field: a type-ahead over the board's tasks by title (or id
// prefix), an ARIA 1.2 combobox. It leaves out the task itself, its current dependencies and
// every task that depends on it (linking one would close a cycle; the server refuses it too).
import { type KeyboardEvent, useId, useMemo, useState } from 'react';

import { STATUS_LABELS, type Task, type TaskDetail } from './model.js';

const MAX_OPTIONS = 8;

/** Tasks `detail.task` may depend on whose title contains `query` (or whose id starts with it). */
export function dependencyCandidates(
  tasks: readonly Task[],
  detail: Pick<TaskDetail, 'task' | 'dependencies' | 'upstreamIds'>,
  query: string,
): Task[] {
  const q = query.trim().toLowerCase();
  if (q === '') return [];
  const excluded = new Set([
    detail.task.id,
    ...detail.dependencies.map((t) => t.id),
    ...detail.upstreamIds,
  ]);
  return tasks
    .filter((t) => !excluded.has(t.id))
    .filter((t) => t.title.toLowerCase().includes(q) || t.id.startsWith(q))
    .slice(0, MAX_OPTIONS);
}

interface PickerProps {
  tasks: readonly Task[];
  detail: TaskDetail;
  onLink(id: string): Promise<boolean>;
}

function Option(props: { task: Task; id: string; active: boolean; onPick(): void }) {
  const { task } = props;
  return (
    <li
      id={props.id}
      role="option"
      aria-selected={props.active}
      className={props.active ? 'option active' : 'option'}
      // mousedown, not click: the input keeps focus (and the list stays open) until the pick.
      onMouseDown={(e) => {
        e.preventDefault();
        props.onPick();
      }}
    >
      {task.title} <span className="tag">{STATUS_LABELS[task.status]}</span>
      {task.teamId !== null && <span className="muted"> · {task.teamId}</span>}
    </li>
  );
}

/** Type a few letters of a title; arrows choose, Enter links, Escape closes the list. */
export function DependencyPicker({ tasks, detail, onLink }: PickerProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const options = useMemo(() => dependencyCandidates(tasks, detail, query), [tasks, detail, query]);
  const shown = open && options.length > 0;
  const pick = (task: Task | undefined): void => {
    if (task === undefined) return;
    void onLink(task.id).then((ok) => ok && setQuery(''));
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step !== 0 && options.length > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (shown ? (a + step + options.length) % options.length : 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(options[shown ? active : 0]);
    } else if (e.key === 'Escape' && shown) {
      // Closes the list only; a second Escape closes the drawer.
      e.stopPropagation();
      setOpen(false);
    }
  };
  const optionId = (i: number): string => `${listId}-${i}`;
  const none = open && query.trim() !== '' && options.length === 0;
  return (
    <div className="picker">
      <label>
        Add a dependency{' '}
        <input
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={listId}
          aria-activedescendant={shown ? optionId(active) : undefined}
          placeholder="Search tasks by title"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
      </label>
      <ul id={listId} role="listbox" aria-label="Matching tasks" hidden={!shown}>
        {shown &&
          options.map((t, i) => (
            <Option
              key={t.id}
              task={t}
              id={optionId(i)}
              active={i === active}
              onPick={() => pick(t)}
            />
          ))}
      </ul>
      {none && (
        <p className="muted" role="status">
          No task to link matches “{query.trim()}”.
        </p>
      )}
    </div>
  );
}
