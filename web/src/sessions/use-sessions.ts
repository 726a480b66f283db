// Sessions page state: the filtered list of recent sessions, and one session's detail (timeline
// and summary) with the summarize action. Types are the sessions model's, as the wire sends them.
import { useCallback, useEffect, useState } from 'react';

import type { Observation } from '../../../src/activity/observations/model.js';
import type {
  Delegation,
  Session,
  SessionDetail,
  SessionList,
  SessionStatus,
  SummaryResult,
  ToolCall,
} from '../../../src/activity/sessions/model.js';
import { api, errorText } from '../api.js';
import type { Wire } from '../wire.js';

export type SessionView = Wire<Session>;
export type DetailView = Wire<SessionDetail>;
export type CallView = Wire<ToolCall>;
export type DelegationView = Wire<Delegation>;
export type { Observation };

/** The statuses to filter by (the model's SESSION_STATUSES; web takes only types from it). */
export const STATUSES = [
  'active',
  'paused',
  'completed',
  'failed',
  'abandoned',
] as const satisfies readonly SessionStatus[];

export interface SessionFilter {
  status: string;
  agentType: string;
}

/** `GET /api/sessions` with the filters given (empty ones left out). */
export function useSessionList(filter: SessionFilter) {
  const [list, setList] = useState<Wire<SessionList>>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    const q = new URLSearchParams({ limit: '50' });
    if (filter.status !== '') q.set('status', filter.status);
    if (filter.agentType.trim() !== '') q.set('agent_type', filter.agentType.trim());
    api<Wire<SessionList>>(`/api/sessions?${q.toString()}`)
      .then((r) => {
        setList(r);
        setError(undefined);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [filter.status, filter.agentType]);
  useEffect(load, [load]);
  return { list, error, load };
}

/** `GET /api/sessions/:id`, and `POST …/summarize` (then reloads). */
export function useSessionDetail(id: string) {
  const [detail, setDetail] = useState<DetailView>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const path = `/api/sessions/${encodeURIComponent(id)}`;
  const load = useCallback(() => {
    api<DetailView>(path)
      .then((d) => {
        setDetail(d);
        setError(undefined);
      })
      .catch((err: unknown) => setError(errorText(err)));
  }, [path]);
  useEffect(load, [load]);
  const summarize = (): void => {
    api<Wire<SummaryResult>>(`${path}/summarize`, { method: 'POST' })
      .then((r) => {
        setNote(r.written ? 'Summary written.' : 'Unchanged since the last summary.');
        load();
      })
      .catch((err: unknown) => setError(errorText(err)));
  };
  return { detail, error, note, summarize };
}
