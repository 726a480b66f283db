// One status column. While a card moves, a column the state machine allows is highlighted and
// the others are marked "not allowed". Long columns render in pages ("Show more") so 2,000
// tasks stay quick.
import { useState } from 'react';

import { type BoardTask, isDropTarget, STATUS_LABELS, type TaskStatus } from './model.js';
import { type CardHandlers, TaskCard } from './task-card.js';
import type { DragState } from './use-drag.js';

const PAGE = 50;

function dropClass(status: TaskStatus, drag: DragState | null): string {
  if (drag === null || drag.task.status === status) return '';
  if (!isDropTarget(drag.task.status, status)) return ' drop-no';
  return drag.over === status ? ' drop-ok drop-over' : ' drop-ok';
}

export function Column(props: {
  status: TaskStatus;
  tasks: readonly BoardTask[];
  drag: DragState | null;
  handlers: CardHandlers;
}) {
  const { status, tasks, drag, handlers } = props;
  const [shown, setShown] = useState(PAGE);
  const blocked =
    drag !== null && drag.task.status !== status && !isDropTarget(drag.task.status, status);
  return (
    <section
      className={`column${dropClass(status, drag)}`}
      data-column={status}
      aria-label={STATUS_LABELS[status]}
    >
      <h2>
        {STATUS_LABELS[status]} <span className="count">{tasks.length}</span>
      </h2>
      {blocked && <p className="drop-hint">not allowed from {STATUS_LABELS[drag.task.status]}</p>}
      <div className="cards">
        {tasks.length === 0 && <p className="empty">No tasks</p>}
        {tasks.slice(0, shown).map((t) => (
          <TaskCard key={t.id} task={t} handlers={handlers} lifted={drag?.task.id === t.id} />
        ))}
        {tasks.length > shown && (
          <button type="button" className="more" onClick={() => setShown((n) => n + PAGE * 4)}>
            Show more ({tasks.length - shown} hidden)
          </button>
        )}
      </div>
    </section>
  );
}
