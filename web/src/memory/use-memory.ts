// Memory page state: the search (query, mode, scope) and its result, and one opened item with
// its versions. The scope is explicit: empty team and agent = global items only.
import { useCallback, useState } from 'react';

import { api, errorText } from '../api.js';

export const MODES = ['fts', 'vector', 'hybrid'] as const;
export type Mode = (typeof MODES)[number];

export interface ScopeFilter {
  teamId: string;
  agentId: string;
}

export interface SearchForm extends ScopeFilter {
  query: string;
  mode: Mode;
}

export interface Hit {
  id: string;
  kind: string;
  title: string;
  snippet: string;
  score: number;
  scoreBasis: string;
  ranks: { fts: number | null; vector: number | null };
  tags: string[];
}

export interface SearchReply {
  mode: Mode;
  results: Hit[];
  degraded?: boolean;
  degradedReason?: string;
}

export interface Item {
  id: string;
  kind: string;
  title: string;
  content: string;
  tags: string[];
  tenantId: string | null;
  teamId: string | null;
  agentId: string | null;
  procedureName?: string;
  version?: number;
  createdAt: string;
  updatedAt: string;
}

export interface ItemDetail {
  item: Item;
  versions?: Item[];
}

/** `scopeTeamId` / `scopeAgentId` query parameters (omitted when empty). */
export function scopeQuery(scope: ScopeFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  if (scope.teamId.trim() !== '') q.set('scopeTeamId', scope.teamId.trim());
  if (scope.agentId.trim() !== '') q.set('scopeAgentId', scope.agentId.trim());
  return q.toString();
}

export function useMemorySearch() {
  const [reply, setReply] = useState<SearchReply>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [last, setLast] = useState<SearchForm>();
  const run = useCallback(async (form: SearchForm) => {
    setBusy(true);
    setLast(form);
    try {
      const q = scopeQuery(form, { query: form.query, mode: form.mode });
      setReply(await api<SearchReply>(`/api/memory/search?${q}`));
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
