// Agent sessions (core.sessions): start, update, get and list sessions; tool calls and
// delegations logged against them; the timeline with the session's observations; summaries
// (summarize.ts). What a session records is scrubbed of secrets; provenance fills what the
// caller does not say. SQL is the store's (named ops); observation memory comes through a seam.
import { randomUUID } from 'node:crypto';

import type { MemoryScrubber } from '../../memory/index.js';
import { ConflictError } from '../../shared/index.js';
import {
  countSessions,
  delegationsOf,
  insertSession,
  insertToolCall,
  listSessionRows,
  type Queryable,
  sessionById,
  type SessionFilter,
  type Store,
  toolCallById,
  toolCallsOf,
  updateSessionRow,
} from '../../store/index.js';
import type { Provenance } from '../fields.js';
import { createDelegations } from './delegation.js';
import { filesTouched } from './files.js';
import { ENDED_STATUSES, type Session, type SessionDetail, type SessionList } from './model.js';
import { requireSession, toDelegation, toSession, toToolCall } from './rows.js';
import type { CreateData, ToolCallData, UpdateData } from './schemas.js';
import { scrubJson, scrubText } from './scrub.js';
import { createSummarize, type SessionMemory, storedSummary } from './summarize.js';
import { mergeTimeline } from './timeline.js';

/** The provenance a call ran with (resolved; fields may be missing). */
export type CallProvenance = Readonly<Partial<Provenance>>;

export interface SessionsOptions {
  scrubber: MemoryScrubber;
  /** Observation memory: the timeline's observations, and where summaries are stored. */
  memory: SessionMemory;
  clock?: (() => number) | undefined;
}

export interface CreateInput {
  /** The new session's id; default the provenance's session_id. */
  id?: string | undefined;
  data: CreateData;
  /** Top-level project_id / worktree_id / agent_type of the call (data wins). */
  defaults?: Pick<CreateData, 'project_id' | 'worktree_id' | 'agent_type'>;
  provenance: CallProvenance;
}

const PROVENANCED = [
  'agent_program',
  'model_id',
  'repo_id',
  'repo_path',
  'project_id',
  'worktree_id',
  'operator_id',
  'machine_id',
] as const;

const MAX_RESULT = 2000;
const short = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

export type Sessions = ReturnType<typeof createSessions>;

/** Builds the sessions service over a store. */
export function createSessions(store: Store, options: SessionsOptions) {
  const clock = options.clock ?? Date.now;
  const clean = scrubText(options.scrubber);
  const scrubbed = async (v: string | undefined, field: string) =>
    v === undefined ? undefined : ((await scrubJson(v, clean, field)) as string);

  async function create(input: CreateInput): Promise<Session> {
    const { data, provenance: p } = input;
    const id = input.id ?? data.session_id ?? p.session_id ?? randomUUID();
    const extra = await scrubJson({ goal: data.goal, metadata: data.metadata }, clean, 'data');
    const title = await scrubbed(data.title, 'data.title');
    const now = clock();
    const status = data.status ?? 'active';
    const filled = Object.fromEntries(
      PROVENANCED.map((k) => [
        k,
        data[k] ??
          (input.defaults as Record<string, string | undefined> | undefined)?.[k] ??
          p[k] ??
          null,
      ]),
    ) as Record<(typeof PROVENANCED)[number], string | null>;
    return store.write(async (tx) => {
      if ((await sessionById(tx, id)) !== undefined) {
        throw new ConflictError(
          `session ${id} already exists: change it with start_session action "update", or pass another session_id`,
        );
      }
      const parent = await parentOf(tx, data.parent_session_id, p.parent_session_id);
      await insertSession(tx, {
        id,
        parent_session_id: parent,
        status,
        agent_type: data.agent_type ?? input.defaults?.agent_type ?? null,
        ...filled,
        delegated: parent === null ? 0 : 1,
        title: title ?? null,
        data: JSON.stringify(extra),
        provenance: JSON.stringify(p),
        started_at: now,
        updated_at: now,
        ended_at: ENDED_STATUSES.includes(status) ? now : null,
      });
      return requireSession(tx, id);
    });
  }

  /** An explicit parent must exist; one only provenance names is linked when it does. */
  async function parentOf(
    tx: Queryable,
    explicit: string | undefined,
    fromProvenance: string | undefined,
  ): Promise<string | null> {
    if (explicit !== undefined) {
      await requireSession(tx, explicit);
      return explicit;
    }
    if (fromProvenance === undefined) return null;
    return (await sessionById(tx, fromProvenance)) === undefined ? null : fromProvenance;
  }

  async function update(
    id: string,
    data: UpdateData,
  ): Promise<{ session: Session; changed: string[] }> {
    const cleanData = (await scrubJson(
      {
        goal: data.goal,
        outcome: data.outcome,
        open_items: data.open_items,
        metadata: data.metadata,
      },
      clean,
      'data',
    )) as Record<string, unknown>;
    const title = await scrubbed(data.title, 'data.title');
    return store.write(async (tx) => {
      const current = await requireSession(tx, id);
      const ended = ENDED_STATUSES.includes(current.status);
      if (data.status !== undefined && ended && data.status !== current.status) {
        throw new ConflictError(
          `session ${id} is ${current.status}: an ended session cannot become ${data.status}`,
        );
      }
      const merged = { ...current.data };
      const changed: string[] = [];
      for (const [k, v] of Object.entries(cleanData)) {
        if (v === undefined || JSON.stringify(merged[k]) === JSON.stringify(v)) continue;
        merged[k] = v;
        changed.push(k);
      }
      const set: Parameters<typeof updateSessionRow>[2] = { data: JSON.stringify(merged) };
      if (data.status !== undefined && data.status !== current.status) {
        set.status = data.status;
        if (ENDED_STATUSES.includes(data.status)) set.ended_at = clock();
        changed.push('status');
      }
      if (title !== undefined && title !== current.title) {
        set.title = title;
        changed.push('title');
      }
      if (data.agent_type !== undefined && data.agent_type !== current.agentType) {
        set.agent_type = data.agent_type;
        changed.push('agent_type');
      }
      if (changed.length > 0) await updateSessionRow(tx, id, set, clock());
      return { session: await requireSession(tx, id), changed };
    });
  }

  async function get(id: string, limit: number): Promise<SessionDetail> {
    const read = await store.read(async (tx) => {
      const session = await requireSession(tx, id);
      const calls = await toolCallsOf(tx, id, limit + 1);
      const delegations = await delegationsOf(tx, id, limit + 1);
      const children = await listSessionRows(tx, { parent_session_id: id }, limit);
      return {
        session,
        toolCalls: calls.slice(0, limit).map(toToolCall),
        delegations: delegations.slice(0, limit).map(toDelegation),
        children: children.map(toSession),
        truncated: calls.length > limit || delegations.length > limit,
      };
    });
    const own = await options.memory.ofSession(id, limit);
    const summary = await storedSummary(options.memory, id, read.session.summaryId);
    return {
      ...read,
      observations: own.observations,
      summary,
      timeline: mergeTimeline(read.toolCalls, read.delegations, own.observations),
      truncated: read.truncated || own.truncated,
    };
  }

  async function list(filter: SessionFilter, limit: number): Promise<SessionList> {
    return store.read(async (tx) => {
      const rows = await listSessionRows(tx, filter, limit);
      const { matching, stored } = await countSessions(tx, filter);
      const status = stored === 0 ? 'empty' : matching === 0 ? 'filtered_out' : 'ok';
      const message =
        status === 'empty'
          ? 'No session is recorded yet (start one with start_session).'
          : status === 'filtered_out'
            ? `${stored} session${stored === 1 ? '' : 's'} recorded, none matches the filters.`
            : `${matching} session${matching === 1 ? '' : 's'} match${matching === 1 ? 'es' : ''}${matching > rows.length ? `, newest ${rows.length} shown` : ''}.`;
      return {
        status,
        message,
        sessions: rows.map(toSession),
        matching,
        stored,
        truncated: matching > rows.length,
      };
    });
  }

  async function logToolCall(sessionId: string, data: ToolCallData, p: CallProvenance) {
    const args = (await scrubJson(data.args ?? {}, clean, 'data.args')) as Record<string, unknown>;
    const failed =
      data.status === 'error' ||
      data.success === false ||
      (data.status === undefined && data.error !== undefined);
    const raw =
      data.result === undefined
        ? null
        : typeof data.result === 'string'
          ? data.result
          : JSON.stringify(data.result);
    const result = raw === null ? null : await clean(short(raw, MAX_RESULT));
    const error = data.error === undefined ? null : await clean(data.error);
    const files = filesTouched(data.files, args);
    return store.write(async (tx) => {
      await requireSession(tx, sessionId);
      const id = randomUUID();
      await insertToolCall(tx, {
        id,
        session_id: sessionId,
        tool_name: data.tool_name,
        status: failed ? 'error' : 'ok',
        args: JSON.stringify(args),
        result,
        error,
        duration_ms: data.duration_ms ?? null,
        files: JSON.stringify(files),
        provenance: JSON.stringify(p),
        created_at: clock(),
      });
      await updateSessionRow(tx, sessionId, {}, clock());
      const row = await toolCallById(tx, id);
      if (row === undefined) throw new Error('tool call vanished inside its transaction');
      return { toolCall: toToolCall(row), session: await requireSession(tx, sessionId) };
    });
  }

  const delegations = createDelegations(store, { clock, clean });

  return {
    create,
    update,
    get,
    list,
    logToolCall,
    logDelegation: delegations.log,
    summarize: createSummarize(store, options.memory),
  };
}
