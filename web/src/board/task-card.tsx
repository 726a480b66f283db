// One card on the board. Focusable; Enter opens it, Space picks it up for a keyboard move. A
// card in the Needs approval lane also names its real status (the column it will return to).
import { type KeyboardEvent, memo, type PointerEvent } from 'react';

import { type BoardTask, STATUS_LABELS } from './model.js';

export interface CardHandlers {
  onPointerDown(task: BoardTask, e: PointerEvent): void;
  onKeyDown(task: BoardTask, e: KeyboardEvent): void;
  onClick(task: BoardTask): void;
}

function leaseText(iso: string | null): string | null {
  if (iso === null) return null;
  const mins = Math.round((Date.parse(iso) - Date.now()) / 60_000);
  return mins <= 0 ? 'lease expired' : `lease ${mins} min`;
}

export const TaskCard = memo(function TaskCard(props: {
  task: BoardTask;
  handlers: CardHandlers;
  lifted: boolean;
}) {
  const { task, handlers, lifted } = props;
  const lease = leaseText(task.leaseExpiresAt);
  return (
    <div
      className={`card${lifted ? ' lifted' : ''}`}
      role="button"
      tabIndex={0}
      aria-roledescription="draggable task"
      aria-pressed={lifted}
      data-task-id={task.id}
      onPointerDown={(e) => handlers.onPointerDown(task, e)}
      onKeyDown={(e) => handlers.onKeyDown(task, e)}
      onClick={() => handlers.onClick(task)}
    >
      <span className="card-title">{task.title}</span>
      <span className="card-meta">
        {task.pendingApprovals.length > 0 && (
          <span className="tag status">{STATUS_LABELS[task.status]}</span>
        )}
        {task.teamId !== null && <span className="tag">{task.teamId}</span>}
        {task.assigneeAgentId !== null && <span className="tag who">@{task.assigneeAgentId}</span>}
        {task.ready && <span className="tag ready">ready</span>}
        {task.priority !== 0 && <span className="tag">p{task.priority}</span>}
        {lease !== null && <span className="tag">{lease}</span>}
      </span>
    </div>
  );
});
