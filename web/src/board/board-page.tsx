// The board page: filters, one column per status, card moves by mouse or keyboard (legal
// targets only), the task drawer, live updates and a status line for every outcome.
import { useCallback, useMemo, useState } from 'react';

import { Column } from './column.js';
import { Drawer } from './drawer.js';
import { FilterBar } from './filters.js';
import {
  applyFilters,
  type BoardTask,
  type Filters,
  type Lane,
  LANES,
  laneOf,
  NO_FILTERS,
  type Task,
} from './model.js';
import { type BoardData, useBoard } from './use-board.js';
import { type DragState, useDrag } from './use-drag.js';

function Ghost({ drag }: { drag: DragState | null }) {
  if (drag?.mode !== 'pointer') return null;
  return (
    <div className="ghost" style={{ left: drag.x + 8, top: drag.y + 8 }} aria-hidden="true">
      {drag.task.title}
    </div>
  );
}

function StatusLine({ board }: { board: BoardData }) {
  const live =
    board.live === 'live' ? 'Live' : board.live === 'offline' ? 'Reconnecting…' : 'Connecting…';
  return (
    <div className="status-line">
      <span className={`live ${board.live}`}>{live}</span>
      <span
        role="status"
        aria-live="polite"
        className={board.notice?.tone === 'error' ? 'notice error' : 'notice'}
      >
        {board.notice?.text ?? ''}
      </span>
    </div>
  );
}

/** Cards by lane: a task waiting on an approval sits in Needs approval, not its status. */
function groupByLane(tasks: readonly BoardTask[]): Map<Lane, BoardTask[]> {
  const groups = new Map<Lane, BoardTask[]>();
  for (const t of tasks) {
    const lane = laneOf(t);
    const group = groups.get(lane);
    if (group === undefined) groups.set(lane, [t]);
    else group.push(t);
  }
  return groups;
}

function Columns(props: {
  tasks: readonly BoardTask[];
  filters: Filters;
  open(t: BoardTask): void;
  board: BoardData;
}) {
  const { board } = props;
  const say = useCallback((t: string) => board.notify(t), [board.notify]);
  const drop = useCallback(
    (t: BoardTask, to: BoardTask['status']) => void board.move(t, to),
    [board.move],
  );
  const { drag, onPointerDown, onKeyDown, onClick } = useDrag(drop, say, props.open);
  const handlers = useMemo(
    () => ({ onPointerDown, onKeyDown, onClick }),
    [onPointerDown, onKeyDown, onClick],
  );
  const byLane = useMemo(
    () => groupByLane(applyFilters(props.tasks, props.filters)),
    [props.tasks, props.filters],
  );
  return (
    <div className={`columns${drag === null ? '' : ' dragging'}`} data-testid="board">
      {LANES.map((l) => (
        <Column key={l} lane={l} tasks={byLane.get(l) ?? []} drag={drag} handlers={handlers} />
      ))}
      <Ghost drag={drag} />
    </div>
  );
}

/** The drawer's task as the list holds it (keeps `ready` and the Needs approval marks). */
function listed(tasks: readonly BoardTask[] | null, task: Task): BoardTask {
  const known = tasks?.find((t) => t.id === task.id);
  return { ...task, ready: known?.ready ?? false, pendingApprovals: known?.pendingApprovals ?? [] };
}

function EmptyBoard() {
  return (
    <p className="center-note">
      The board is empty. Agents create tasks over MCP (<code>create_task</code> on{' '}
      <code>/api/mcp/tasks</code>); attach one with <code>npx cairn config</code>.
    </p>
  );
}

export function BoardPage() {
  const board = useBoard();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = useCallback((t: BoardTask) => setOpenId(t.id), []);
  const say = useCallback((t: string, tone?: 'error') => board.notify(t, tone), [board.notify]);
  if (board.tasks === null) {
    if (board.error !== null)
      return (
        <p className="center-note" role="alert">
          Cannot load the board: {board.error}
        </p>
      );
    return <p className="center-note">Loading the board…</p>;
  }
  return (
    <main className="board">
      <div className="toolbar">
        <FilterBar tasks={board.tasks} filters={filters} onChange={setFilters} />
        <StatusLine board={board} />
      </div>
      {board.error !== null && (
        <p role="alert" className="notice error">
          Refresh failed: {board.error}
        </p>
      )}
      {board.tasks.length === 0 ? (
        <EmptyBoard />
      ) : (
        <Columns tasks={board.tasks} filters={filters} open={open} board={board} />
      )}
      {openId !== null && (
        <Drawer
          taskId={openId}
          version={board.version}
          tasks={board.tasks}
          onClose={() => setOpenId(null)}
          onOpen={setOpenId}
          onMove={(task, to) => void board.move(listed(board.tasks, task), to)}
          say={say}
        />
      )}
    </main>
  );
}
