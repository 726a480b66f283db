// Moving cards between columns, by mouse (pointer drag) and by keyboard (Space picks a card
// up, arrows choose among the columns the state machine allows, Space/Enter drops, Escape
// cancels). Only legal targets are offered; the drop itself is the board's `move`.
import { type KeyboardEvent, type PointerEvent, useCallback, useRef, useState } from 'react';

import {
  type BoardTask,
  type Lane,
  LANE_LABELS,
  movesFrom,
  NEEDS_APPROVAL,
  STATUS_LABELS,
  type TaskStatus,
} from './model.js';

export interface DragState {
  task: BoardTask;
  mode: 'pointer' | 'keyboard';
  over: Lane | null;
  x: number;
  y: number;
}

type Drop = (task: BoardTask, to: TaskStatus) => void;
type Say = (text: string) => void;

function columnAt(x: number, y: number): Lane | undefined {
  const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-column]');
  return el?.dataset['column'] as Lane | undefined;
}

function trackPointer(
  task: BoardTask,
  e: PointerEvent,
  set: (d: DragState | null) => void,
  act: { drop: Drop; say: Say },
  clicked: { current: boolean },
): void {
  const start = { x: e.clientX, y: e.clientY };
  let active = false;
  const onMove = (ev: globalThis.PointerEvent): void => {
    if (!active && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 6) return;
    active = true;
    set({
      task,
      mode: 'pointer',
      over: columnAt(ev.clientX, ev.clientY) ?? null,
      x: ev.clientX,
      y: ev.clientY,
    });
  };
  const onUp = (ev: globalThis.PointerEvent): void => {
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    if (!active) return;
    clicked.current = true;
    window.setTimeout(() => (clicked.current = false), 0);
    set(null);
    const to = columnAt(ev.clientX, ev.clientY);
    if (to === NEEDS_APPROVAL) {
      act.say(`${LANE_LABELS[to]} is not a drop target: decide the call on the Approvals page`);
    } else if (to !== undefined && to !== task.status) act.drop(task, to);
  };
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
}

function pickUp(task: BoardTask, set: (d: DragState) => void, say: Say): void {
  const targets = movesFrom(task.status);
  const first = targets[0];
  if (first === undefined) {
    say(`${STATUS_LABELS[task.status]} is final: “${task.title}” cannot move`);
    return;
  }
  set({ task, mode: 'keyboard', over: first, x: 0, y: 0 });
  const names = targets.map((s) => STATUS_LABELS[s]).join(', ');
  say(
    `Picked up “${task.title}”. Arrow keys choose a column (${names}); Space drops; Escape cancels.`,
  );
}

function steer(
  d: DragState,
  key: string,
  set: (d: DragState | null) => void,
  drop: Drop,
  say: Say,
): void {
  const targets = movesFrom(d.task.status);
  const over = d.over === NEEDS_APPROVAL ? null : d.over;
  const at = Math.max(0, targets.indexOf(over ?? targets[0] ?? 'todo'));
  const step =
    key === 'ArrowRight' || key === 'ArrowDown'
      ? 1
      : key === 'ArrowLeft' || key === 'ArrowUp'
        ? -1
        : 0;
  if (step !== 0) {
    const over = targets[(at + step + targets.length) % targets.length] ?? null;
    set({ ...d, over });
    if (over !== null) say(`Drop on ${STATUS_LABELS[over]}?`);
  } else if (key === ' ' || key === 'Enter') {
    set(null);
    if (d.over !== null && d.over !== NEEDS_APPROVAL) drop(d.task, d.over);
  } else if (key === 'Escape') {
    set(null);
    say('Move cancelled');
  }
}

export function useDrag(drop: Drop, say: Say, open: (task: BoardTask) => void) {
  const [drag, setDrag] = useState<DragState | null>(null);
  const current = useRef(drag);
  current.current = drag;
  const justDragged = useRef(false);
  const onPointerDown = useCallback(
    (task: BoardTask, e: PointerEvent) => {
      if (e.button === 0 && e.pointerType === 'mouse')
        trackPointer(task, e, setDrag, { drop, say }, justDragged);
    },
    [drop, say],
  );
  const onKeyDown = useCallback(
    (task: BoardTask, e: KeyboardEvent) => {
      const d = current.current;
      const mine = d !== null && d.mode === 'keyboard' && d.task.id === task.id;
      if (!mine && e.key !== ' ' && e.key !== 'Enter') return;
      e.preventDefault();
      if (mine) steer(d, e.key, setDrag, drop, say);
      else if (e.key === ' ') pickUp(task, setDrag, say);
      else open(task);
    },
    [drop, say, open],
  );
  const onClick = useCallback((task: BoardTask) => !justDragged.current && open(task), [open]);
  return { drag, onPointerDown, onKeyDown, onClick };
}
