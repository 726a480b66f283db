// Reading observations: by ids (saying which were not found), a filtered list (newest first, or
// by relevance to a query through memory's search), and the timeline around an anchor. Every
// empty answer says why: nothing stored, the filters admit nothing, or the query matched none.
import type { Memory } from '../../memory/index.js';
import { NotFoundError } from '../../shared/index.js';
import {
  countMemoryItems,
  listObservations,
  observationFilter,
  observationsBeside,
  observationsByIds,
  observationsOfSession,
  type ObservationSqlFilter,
  type Store,
} from '../../store/index.js';
import type {
  GotObservations,
  ListStatus,
  Observation,
  ObservationList,
  ObservationTimeline,
  ObservationType,
  SessionObservations,
} from './model.js';
import { toObservation } from './rows.js';

/** The filters every read takes (each given one must hold). */
export interface ObservationQuery {
  types?: readonly ObservationType[] | undefined;
  tags?: readonly string[] | undefined;
  sessionId?: string | undefined;
  projectId?: string | undefined;
  repoId?: string | undefined;
}

export interface ListInput extends ObservationQuery {
  query?: string | undefined;
  limit?: number | undefined;
}

export interface TimelineInput extends ObservationQuery {
  anchorId?: string | undefined;
  depthBefore?: number | undefined;
  depthAfter?: number | undefined;
  windowSecs?: number | undefined;
}

export const LIST_LIMIT = { default: 20, max: 200 } as const;
export const TIMELINE_DEPTH = { default: 5, max: 100 } as const;

export interface ReadDeps {
  store: Store;
  search: Memory['search'];
  /** Whether an embedder exists (then a query is answered by hybrid search). */
  vectors: boolean;
  clock: () => number;
}

const sqlFilter = (
  q: ObservationQuery,
  extra: ObservationSqlFilter = {},
): ObservationSqlFilter => ({
  resources: q.types,
  tags: q.tags,
  sessionId: q.sessionId,
  projectId: q.projectId,
  repoId: q.repoId,
  ...extra,
});

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Status and sentence of a read that found `found` of `matching` (of `stored`). */
export function honesty(
  found: number,
  matching: number,
  stored: number,
  query: string | undefined,
): { status: ListStatus; message: string } {
  if (stored === 0) return { status: 'empty', message: 'No observation is stored yet.' };
  if (matching === 0) {
    return {
      status: 'filtered_out',
      message: `The filters admit none of the ${plural(stored, 'stored observation')}: widen them.`,
    };
  }
  if (found === 0 && query !== undefined) {
    return {
      status: 'no_match',
      message: `The query matched none of the ${plural(matching, 'observation')} the filters admit.`,
    };
  }
  return { status: 'ok', message: `${plural(found, 'observation')} of ${matching} matching.` };
}

/** Builds get, list and timeline. */
export function createRead(deps: ReadDeps) {
  const { store } = deps;
  const stored = () => countMemoryItems(store, observationFilter(store.dialect));

  /** Ids of the observations `query` finds among those `filter` admits, best first. */
  async function ranked(query: string, q: ObservationQuery, limit: number): Promise<string[]> {
    const found = await deps.search({
      query,
      mode: deps.vectors ? 'hybrid' : 'fts',
      limit,
      scope: {},
      filter: observationFilter(store.dialect, sqlFilter(q)),
    });
    return found.results.map((h) => h.id);
  }

  async function byIds(ids: readonly string[]): Promise<Observation[]> {
    const rows = new Map((await observationsByIds(store, ids)).map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row === undefined ? [] : [toObservation(row)];
    });
  }

  return {
    /** The live observations with these ids, in the order asked, and the ids not found. */
    async get(ids: readonly string[]): Promise<GotObservations> {
      const unique = [...new Set(ids)];
      const observations = await byIds(unique);
      const seen = new Set(observations.map((o) => o.id));
      return { observations, missing: unique.filter((id) => !seen.has(id)) };
    },

    /** Observations passing the filters: newest first, or by relevance to `query`. */
    async list(input: ListInput): Promise<ObservationList> {
      const limit = input.limit ?? LIST_LIMIT.default;
      const filter = observationFilter(store.dialect, sqlFilter(input));
      const [all, matching] = await Promise.all([stored(), countMemoryItems(store, filter)]);
      let observations: Observation[];
      if (input.query === undefined) {
        observations = (await listObservations(store, filter, limit)).map(toObservation);
      } else {
        observations = matching === 0 ? [] : await byIds(await ranked(input.query, input, limit));
      }
      const truncated = input.query === undefined && matching > observations.length;
      return {
        ...honesty(observations.length, matching, all, input.query),
        observations,
        matching,
        stored: all,
        truncated,
      };
    },

    /** One session's observations, oldest first, at most `limit`; `total` counts them all. */
    async ofSession(sessionId: string, limit: number): Promise<SessionObservations> {
      const { rows, total } = await observationsOfSession(store, sessionId, limit);
      return { observations: rows.map(toObservation), total, truncated: total > rows.length };
    },

    /**
     * The observations around `anchorId` in time order (depthBefore older, depthAfter newer,
     * within ±windowSecs of it when given), or without an anchor the newest depthBefore of the
     * filtered set (within the last windowSecs when given). The filters narrow the neighbours;
     * the anchor itself is always shown.
     * @throws NotFoundError when the anchor names no live observation.
     */
    async timeline(input: TimelineInput): Promise<ObservationTimeline> {
      const before = input.depthBefore ?? TIMELINE_DEPTH.default;
      const after = input.depthAfter ?? TIMELINE_DEPTH.default;
      const span = input.windowSecs === undefined ? null : input.windowSecs * 1000;
      const all = await stored();
      if (input.anchorId === undefined) {
        const now = deps.clock();
        const window = span === null ? {} : { from: now - span, to: now };
        const filter = observationFilter(store.dialect, sqlFilter(input, window));
        const newest = (await listObservations(store, filter, before)).reverse();
        const matching = await countMemoryItems(store, filter);
        return {
          ...honesty(newest.length, matching, all, undefined),
          anchor: null,
          before: newest.map(toObservation),
          after: [],
          window: span === null ? null : isoWindow(now - span, now),
        };
      }
      const [anchorRow] = await observationsByIds(store, [input.anchorId]);
      if (anchorRow === undefined) {
        throw new NotFoundError(
          `anchor_id: no observation has id ${JSON.stringify(input.anchorId)}`,
        );
      }
      const at = anchorRow.observed_at;
      const window = span === null ? {} : { from: at - span, to: at + span };
      const filter = observationFilter(store.dialect, sqlFilter(input, window));
      const anchor = { observedAt: at, rowid: anchorRow.rowid };
      const [older, newer] = await Promise.all([
        observationsBeside(store, filter, anchor, 'before', before),
        observationsBeside(store, filter, anchor, 'after', after),
      ]);
      const neighbours = older.length + newer.length;
      return {
        status: neighbours === 0 ? 'anchor_only' : 'ok',
        message:
          neighbours === 0
            ? 'No other observation passes the filters and the window around the anchor.'
            : `${plural(older.length, 'observation')} before the anchor, ${newer.length} after.`,
        anchor: toObservation(anchorRow),
        before: older.reverse().map(toObservation),
        after: newer.map(toObservation),
        window: span === null ? null : isoWindow(at - span, at + span),
      };
    },
  };
}

const isoWindow = (from: number, to: number) => ({
  from: new Date(from).toISOString(),
  to: new Date(to).toISOString(),
});
