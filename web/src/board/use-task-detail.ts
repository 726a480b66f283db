// One task's detail for the drawer and the broker calls waiting on it, refetched whenever the
// board changes (its stream also fires when approvals change), plus the drawer's writes
// (comment, link, unlink), each reported through `say`.
import { useCallback, useEffect, useRef, useState } from 'react';

import { api, type ApiInit, errorText } from '../api.js';
import type { PendingApproval } from '../approvals/use-pending.js';
import { msOf } from '../wire.js';
import type { TaskDetail } from './model.js';

/** The task's pending approvals, oldest first, or why they could not be read. */
export interface WaitingCalls {
  approvals: PendingApproval[];
  error: string | null;
}

const NONE: WaitingCalls = { approvals: [], error: null };

async function readWaiting(taskId: string): Promise<WaitingCalls> {
  const q = new URLSearchParams({ taskId, limit: '500' });
  try {
    const reply = await api<{ approvals: PendingApproval[] }>(`/api/approvals?${q}`);
    return {
      approvals: reply.approvals.sort((a, b) => msOf(a.createdAt) - msOf(b.createdAt)),
      error: null,
    };
  } catch (err) {
    return { approvals: [], error: errorText(err) };
  }
}

export function useTaskDetail(
  taskId: string,
  version: number,
  say: (t: string, tone?: 'error') => void,
) {
  const [detail, setDetail] = useState<TaskDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<WaitingCalls>(NONE);
  const base = `/api/board/tasks/${encodeURIComponent(taskId)}`;
  // Loads overlap when changes come quickly; only the newest may set state, or an older answer
  // arriving last would stay on screen until the next change.
  const newest = useRef(0);
  const load = useCallback(async () => {
    const mine = ++newest.current;
    const [task, calls] = await Promise.allSettled([api<TaskDetail>(base), readWaiting(taskId)]);
    if (mine !== newest.current) return;
    if (task.status === 'fulfilled') {
      setDetail(task.value);
      setError(null);
    } else {
      setError(errorText(task.reason));
    }
    if (calls.status === 'fulfilled') setWaiting(calls.value);
  }, [base, taskId]);
  useEffect(() => void load(), [load, version]);
  const write = useCallback(
    async (path: string, init: ApiInit, done: string): Promise<boolean> => {
      try {
        await api(`${base}${path}`, init);
        say(done);
        await load();
        return true;
      } catch (err) {
        say(errorText(err), 'error');
        return false;
      }
    },
    [base, load, say],
  );
  return { detail, error, waiting, write };
}
