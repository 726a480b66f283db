// Memory page state: the search (query, mode, scope) and its result, and one opened item with
// its versions. The scope is explicit: empty team and agent = global items only.
import { useCallback, useState } from 'react';

import type { MemoryItem, SearchHit, SearchMode, SearchResult } from '../../../src/memory/model.js';
import { api, errorText } from '../api.js';

export type { MemoryItem, SearchHit, SearchResult };

export type Mode = SearchMode;
export const MODES = ['fts', 'vector', 'hybrid'] as const satisfies readonly Mode[];

export interface ScopeFilter {
  teamId: string;
  agentId: string;
}

export interface SearchForm extends ScopeFilter {
  query: string;
  mode: Mode;
}

/** `GET /api/memory/items/:id`: the item and, for a procedure, every version. */
export interface ItemDetail {
  item: MemoryItem;
  versions?: MemoryItem[];
}

/** `scopeTeamId` / `scopeAgentId` query parameters (omitted when empty). */
export function scopeQuery(scope: ScopeFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  if (scope.teamId.trim() !== '') q.set('scopeTeamId', scope.teamId.trim());
  if (scope.agentId.trim() !== '') q.set('scopeAgentId', scope.agentId.trim());
  return q.toString();
}

export function useMemorySearch() {
  const [reply, setReply] = useState<SearchResult>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<SearchForm>();
  const run = useCallback(async (form: SearchForm) => {
    setBusy(true);
    setLast(form);
    try {
      const q = scopeQuery(form, { query: form.query, mode: form.mode });
      setReply(await api<SearchResult>(`/api/memory/search?${q}`));
      setError(undefined);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }, []);
  const rerun = useCallback(() => (last === undefined ? undefined : run(last)), [last, run]);
  return { reply, error, busy, last, run, rerun };
}
