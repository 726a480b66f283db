// The task drawer: description, the broker calls waiting for a human (links to each approval),
// claim and lease, status history, move-to (legal moves only), ancestors, children,
// dependencies (link by searching titles, unlink), dependents and comments (add one as the user).
import { useEffect, useRef } from 'react';

import { DependencyPicker } from './dependency-picker.js';
import { Claim, Comments, History, OneLineForm, TaskList } from './drawer-parts.js';
import { movesFrom, STATUS_LABELS, type Task, type TaskDetail, type TaskStatus } from './model.js';
import { useTaskDetail, type WaitingCalls as Waiting } from './use-task-detail.js';
import { WaitingCalls } from './waiting-calls.js';

export interface DrawerProps {
  taskId: string;
  version: number;
  /** The board's tasks: what the dependency picker searches. */
  tasks: readonly Task[];
  onClose(): void;
  onOpen(id: string): void;
  onMove(task: Task, to: TaskStatus): void;
  say(text: string, tone?: 'error'): void;
}

function MoveTo({ task, onMove }: { task: Task; onMove(task: Task, to: TaskStatus): void }) {
  const moves = movesFrom(task.status);
  return (
    <label className="move-to">
      Status: <strong>{STATUS_LABELS[task.status]}</strong>{' '}
      {moves.length > 0 && (
        <select
          aria-label="Move to"
          value=""
          onChange={(e) => onMove(task, e.target.value as TaskStatus)}
        >
          <option value="">Move to…</option>
          {moves.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      )}
    </label>
  );
}

type Write = ReturnType<typeof useTaskDetail>['write'];

interface BodyProps {
  detail: TaskDetail;
  write: Write;
  props: DrawerProps;
}

type FullBodyProps = BodyProps & { waiting: Waiting };

function Relations({ detail, write, props }: BodyProps) {
  const link = (dep: string) =>
    write('/dependencies', { method: 'POST', body: { dependsOnTaskId: dep } }, 'Dependency linked');
  const unlink = (dep: string) =>
    void write(
      `/dependencies/${encodeURIComponent(dep)}`,
      { method: 'DELETE' },
      'Dependency removed',
    );
  const { onOpen } = props;
  return (
    <>
      <TaskList title="Ancestors" tasks={detail.ancestors} empty="A root task." onOpen={onOpen} />
      <TaskList title="Children" tasks={detail.children} empty="No subtasks." onOpen={onOpen} />
      <TaskList
        title="Depends on"
        tasks={detail.dependencies}
        empty="No dependencies."
        onOpen={onOpen}
        onUnlink={unlink}
      />
      <DependencyPicker tasks={props.tasks} detail={detail} onLink={link} />
      <TaskList
        title="Dependents"
        tasks={detail.dependents}
        empty="Nothing waits on this task."
        onOpen={onOpen}
      />
    </>
  );
}

function Body({ detail, write, props, waiting }: FullBodyProps) {
  const comment = (body: string) =>
    write('/comments', { method: 'POST', body: { body } }, 'Comment added');
  return (
    <>
      <MoveTo task={detail.task} onMove={props.onMove} />
      <p className="description">{detail.task.description || 'No description.'}</p>
      <p className="muted">
        id <code>{detail.task.id}</code> · team {detail.task.teamId ?? 'none'} · priority{' '}
        {detail.task.priority}
      </p>
      <WaitingCalls waiting={waiting} />
      <section className="drawer-section">
        <h3>Claim</h3>
        <Claim task={detail.task} />
      </section>
      <section className="drawer-section">
        <h3>History</h3>
        <History events={detail.history} />
      </section>
      <Relations detail={detail} write={write} props={props} />
      <section className="drawer-section">
        <h3>Comments</h3>
        <Comments comments={detail.comments} />
        <OneLineForm label="Comment as user " button="Add comment" multiline onSubmit={comment} />
      </section>
    </>
  );
}

export function Drawer(props: DrawerProps) {
  const { detail, error, waiting, write } = useTaskDetail(props.taskId, props.version, props.say);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [props.taskId]);
  return (
    <aside
      className="drawer"
      role="dialog"
      aria-modal="false"
      aria-label={detail?.task.title ?? 'Task'}
      onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
    >
      <header className="drawer-head">
        <h2>{detail?.task.title ?? 'Loading…'}</h2>
        <button type="button" ref={close} onClick={props.onClose} aria-label="Close task">
          ✕
        </button>
      </header>
      {error !== null && <p role="alert">Cannot load this task: {error}</p>}
      {detail !== null && <Body detail={detail} write={write} props={props} waiting={waiting} />}
    </aside>
  );
}
