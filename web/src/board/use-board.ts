// Board data: the task list from the server (refetched on every live change), and status
// moves applied optimistically, rolled back with the server's message when refused.
import { useCallback, useEffect, useRef, useState } from 'react';

import { api, errorText } from '../api.js';
import {
  type BoardTask,
  isDropTarget,
  STATUS_LABELS,
  type Task,
  type TaskStatus,
} from './model.js';
import { type LiveState, useLive } from './use-live.js';

export interface Notice {
  text: string;
  tone: 'info' | 'error';
}

export interface BoardData {
  tasks: BoardTask[] | null;
  error: string | null;
  live: LiveState;
  /** Bumped after every refetch so open views (the drawer) can refresh too. */
  version: number;
  notice: Notice | null;
  notify(text: string, tone?: Notice['tone']): void;
  move(task: BoardTask, to: TaskStatus): Promise<void>;
}

const replace = (tasks: BoardTask[] | null, next: BoardTask): BoardTask[] | null =>
  tasks?.map((t) => (t.id === next.id ? next : t)) ?? null;

export function useBoard(): BoardData {
  const [tasks, setTasks] = useState<BoardTask[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Only the newest request may set the list: an older answer arriving late is dropped.
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const { tasks: next } = await api<{ tasks: BoardTask[] }>('/api/board/tasks');
      if (ticket !== latest.current) return;
      setTasks(next);
      setError(null);
      setVersion((v) => v + 1);
    } catch (err) {
      if (ticket === latest.current) setError(errorText(err));
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  const live = useLive('/api/board/stream', () => void reload());
  const notify = useCallback((text: string, tone: Notice['tone'] = 'info') => {
    setNotice({ text, tone });
  }, []);
  const move = useCallback(
    (task: BoardTask, to: TaskStatus) => moveTask(task, to, setTasks, notify),
    [notify],
  );
  return { tasks, error, live, version, notice, notify, move };
}

async function moveTask(
  task: BoardTask,
  to: TaskStatus,
  setTasks: (fn: (t: BoardTask[] | null) => BoardTask[] | null) => void,
  notify: (text: string, tone?: Notice['tone']) => void,
): Promise<void> {
  const route = `${STATUS_LABELS[task.status]} → ${STATUS_LABELS[to]}`;
  if (!isDropTarget(task.status, to)) {
    notify(`${route} is not allowed`, 'error');
    return;
  }
  setTasks((all) => replace(all, { ...task, status: to }));
  try {
    const path = `/api/board/tasks/${encodeURIComponent(task.id)}/status`;
    const reply = await api<{ task: Task }>(path, { method: 'POST', body: { status: to } });
    setTasks((all) => replace(all, { ...task, ...reply.task }));
    notify(`Moved “${task.title}”: ${route}`);
  } catch (err) {
    setTasks((all) => replace(all, task));
    notify(`Move refused, rolled back: ${errorText(err)}`, 'error');
  }
}
