// One board column: a status, or the Needs approval lane (tasks whose broker call waits for a
// human; never a drop target). While a card moves, a column the state machine allows is
// highlighted and the others are marked "not allowed". Long columns render in pages ("Show
// more") so 2,000 tasks stay quick.
import { useState } from 'react';

import { approvalHref } from '../approvals/links.js';
import {
  type BoardTask,
  isDropTarget,
  type Lane,
  LANE_LABELS,
  NEEDS_APPROVAL,
  STATUS_LABELS,
} from './model.js';
import { type CardHandlers, TaskCard } from './task-card.js';
import type { DragState } from './use-drag.js';

const PAGE = 50;

function dropClass(lane: Lane, drag: DragState | null): string {
  if (drag === null || drag.task.status === lane) return '';
  if (!isDropTarget(drag.task.status, lane)) return ' drop-no';
  return drag.over === lane ? ' drop-ok drop-over' : ' drop-ok';
}

function DropHint({ lane, drag }: { lane: Lane; drag: DragState | null }) {
  if (drag === null || drag.task.status === lane || isDropTarget(drag.task.status, lane)) {
    return null;
  }
  const text =
    lane === NEEDS_APPROVAL
      ? 'not a drop target'
      : `not allowed from ${STATUS_LABELS[drag.task.status]}`;
  return <p className="drop-hint">{text}</p>;
}

function Empty({ lane }: { lane: Lane }) {
  if (lane !== NEEDS_APPROVAL) return <p className="empty">No tasks</p>;
  return (
    <p className="empty">
      No task is waiting for a human. When an agent working on a task calls a destructive or
      external tool (e.g. <code>delete_path</code>), the task shows here until you decide.
    </p>
  );
}

/**
 * A card in the Needs approval lane: the task card plus what waits and a link to its oldest
 * waiting approval (the drawer links each one).
 */
function WaitingCard(props: { task: BoardTask; handlers: CardHandlers; lifted: boolean }) {
  const marks = props.task.pendingApprovals;
  const tools = [...new Set(marks.map((a) => a.tool))].join(', ');
  return (
    <div className="waiting">
      <TaskCard {...props} />
      <p className="waiting-on">
        Waits for approval: <code>{tools}</code> ·{' '}
        <a href={marks[0] === undefined ? '/approvals' : approvalHref(marks[0].id)}>
          Open Approvals
        </a>
      </p>
    </div>
  );
}

export function Column(props: {
  lane: Lane;
  tasks: readonly BoardTask[];
  drag: DragState | null;
  handlers: CardHandlers;
}) {
  const { lane, tasks, drag, handlers } = props;
  const [shown, setShown] = useState(PAGE);
  const waiting = lane === NEEDS_APPROVAL;
  const Card = waiting ? WaitingCard : TaskCard;
  return (
    <section
      className={`column${waiting ? ' needs-approval' : ''}${dropClass(lane, drag)}`}
      data-column={lane}
      aria-label={LANE_LABELS[lane]}
    >
      <h2>
        {LANE_LABELS[lane]} <span className="count">{tasks.length}</span>
      </h2>
      <DropHint lane={lane} drag={drag} />
      <div className="cards">
        {tasks.length === 0 && <Empty lane={lane} />}
        {tasks.slice(0, shown).map((t) => (
          <Card key={t.id} task={t} handlers={handlers} lifted={drag?.task.id === t.id} />
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
