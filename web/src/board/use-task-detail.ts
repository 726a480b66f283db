// One task's detail for the drawer, refetched whenever the board changes, plus the drawer's
// writes (comment, link, unlink), each reported through `say`.
import { useCallback, useEffect, useState } from 'react';

import { api, type ApiInit, errorText } from '../api.js';
import type { TaskDetail } from './model.js';

export function useTaskDetail(
  taskId: string,
  version: number,
  say: (t: string, tone?: 'error') => void,
) {
  const [detail, setDetail] = useState<TaskDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/board/tasks/${encodeURIComponent(taskId)}`;
  const load = useCallback(async () => {
    try {
      setDetail(await api<TaskDetail>(base));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [base]);
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
  return { detail, error, write };
}
