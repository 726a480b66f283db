// The audit log, one page at a time: filters become the `GET /api/audit` query, and a stack of
// cursors lets the page go to older pages and back. Changing a filter starts at the newest.
import { useCallback, useEffect, useState } from 'react';

import type {
  AuditEntry as ModelEntry,
  AuditPage as ModelPage,
} from '../../../src/broker/model.js';
import { api, errorText } from '../api.js';
import type { Wire } from '../wire.js';

export type AuditEntry = Wire<ModelEntry>;
type AuditPage = Wire<ModelPage>;

export interface AuditFilter {
  tool: string;
  caller: string;
  outcome: string;
  /** `datetime-local` values (local time), '' for none. */
  since: string;
  until: string;
}

export const NO_FILTER: AuditFilter = { tool: '', caller: '', outcome: '', since: '', until: '' };
export const PAGE_SIZE = 50;

/** The REST query for a filter and cursor. */
export function auditQuery(filter: AuditFilter, cursor: number | null): string {
  const q = new URLSearchParams({ limit: String(PAGE_SIZE) });
  for (const key of ['tool', 'caller', 'outcome'] as const) {
    const v = filter[key].trim();
    if (v !== '') q.set(key, v);
  }
  for (const key of ['since', 'until'] as const) {
    const t = new Date(filter[key]).getTime();
    if (filter[key] !== '' && !Number.isNaN(t)) q.set(key, new Date(t).toISOString());
  }
  if (cursor !== null) q.set('cursor', String(cursor));
  return q.toString();
}

/** The current page for the current filter, with older/newer navigation. */
export function useAudit() {
  const [filter, setFilterState] = useState<AuditFilter>(NO_FILTER);
  const [cursors, setCursors] = useState<Array<number | null>>([null]);
  const [page, setPage] = useState<AuditPage>();
  const [error, setError] = useState<string>();
  const cursor = cursors[cursors.length - 1] ?? null;
  const load = useCallback(async () => {
    try {
      setPage(await api<AuditPage>(`/api/audit?${auditQuery(filter, cursor)}`));
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    }
  }, [filter, cursor]);
  useEffect(() => void load(), [load]);
  const setFilter = (next: AuditFilter): void => {
    setFilterState(next);
    setCursors([null]);
  };
  const next = page?.nextCursor ?? null;
  const older = (): void => {
    if (next !== null) setCursors((c) => [...c, next]);
  };
  const newer = (): void => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c));
  return {
    filter,
    setFilter,
    page,
    error,
    pageNo: cursors.length,
    hasOlder: next !== null,
    older,
    newer,
    reload: load,
  };
}
