// summarize_session: reads a session's records, builds its extractive summary (summary.ts),
// and stores it as a `session` observation through observation memory (scrubbed, with the
// call's provenance, tagged with the session id), recording hash and memory id on the session.
// An unchanged session gives back its stored summary without writing. Observation memory is
// reached through the SessionMemory seam the core wires; this module never imports a façade.
import {
  delegationsOf,
  listSessionRows,
  sessionById,
  setSessionSummary,
  type Store,
  toolCallsOf,
} from '../../store/index.js';
import type { Provenance } from '../fields.js';
import type {
  GotObservations,
  Observation,
  ObservationInput,
  SessionObservations,
  StoredObservation,
} from '../observations/index.js';
import type { SummaryResult } from './model.js';
import { requireSession, toDelegation, toSession, toToolCall } from './rows.js';
import { summaryText } from './summary-text.js';
import {
  buildSummary,
  MAX_SUMMARY_DELEGATIONS,
  MAX_SUMMARY_OBSERVATIONS,
  summaryHash,
  type SummaryInputs,
  summaryKey,
} from './summary.js';

/** What sessions need of observation memory (core.observations provides it). */
export interface SessionMemory {
  ofSession(sessionId: string, limit: number): Promise<SessionObservations>;
  get(ids: readonly string[]): Promise<GotObservations>;
  store(input: ObservationInput): Promise<StoredObservation>;
}

/** Tool calls a summary reads at most (the counts still cover them all). */
export const SUMMARY_CALLS = 5000;

/** The session's summary memory, when its id is recorded and it is still live. */
export async function storedSummary(
  memory: SessionMemory,
  sessionId: string,
  summaryId: string | null,
): Promise<Observation | null> {
  if (summaryId === null) return null;
  const [found] = (await memory.get([summaryId])).observations;
  return found !== undefined && found.key === summaryKey(sessionId) ? found : null;
}

export function createSummarize(store: Store, memory: SessionMemory) {
  /** What the summary is built from, the hash it was last summarized to, and that summary. */
  async function gather(id: string) {
    const { lastHash, ...read } = await store.read(async (tx) => {
      const session = await requireSession(tx, id);
      const calls = await toolCallsOf(tx, id, SUMMARY_CALLS);
      const delegations = await delegationsOf(tx, id, MAX_SUMMARY_DELEGATIONS);
      const children = await listSessionRows(
        tx,
        { parent_session_id: id },
        MAX_SUMMARY_DELEGATIONS,
      );
      return {
        session,
        lastHash: (await sessionById(tx, id))?.summary_hash ?? null,
        toolCalls: calls.map(toToolCall),
        delegations: delegations.map(toDelegation),
        children: new Map(children.map((r) => [r.id, toSession(r)])),
      };
    });
    const previous = await storedSummary(memory, id, read.session.summaryId);
    const own = await memory.ofSession(id, MAX_SUMMARY_OBSERVATIONS + 1);
    const inputs: SummaryInputs = {
      ...read,
      observations: own.observations.filter((o) => o.key !== summaryKey(id)),
      observationCount: own.total - (previous === null ? 0 : 1),
    };
    return { inputs, lastHash, previous };
  }

  /**
   * Summarizes one session; returns the stored summary when nothing changed since the last.
   * @throws NotFoundError for an unknown session; DomainError('declined') from observation
   *   memory should the summary be nothing but secrets.
   */
  return async function summarize(
    id: string,
    provenance: Readonly<Partial<Provenance>>,
  ): Promise<SummaryResult> {
    const { inputs, lastHash, previous } = await gather(id);
    const summary = buildSummary(inputs);
    const hash = summaryHash(summary);
    const base = { sessionId: id, hash, summary };
    if (previous !== null && lastHash === hash) {
      return {
        ...base,
        written: false,
        memoryId: previous.id,
        replaced: null,
        text: previous.content,
      };
    }
    const stored = await memory.store({
      type: 'session',
      title: `Session summary: ${summary.title}`,
      content: summaryText(summary),
      tags: ['session-summary', `session:${id}`],
      sessionId: id,
      projectId: inputs.session.projectId ?? undefined,
      repoId: inputs.session.repoId ?? undefined,
      key: summaryKey(id),
      metadata: { summary_hash: hash, status: summary.status },
      provenance,
    });
    const memoryId = stored.observation.id;
    await store.write((tx) => setSessionSummary(tx, id, hash, memoryId));
    return {
      ...base,
      written: !stored.deduplicated,
      memoryId,
      replaced: stored.replaced,
      text: stored.observation.content,
    };
  };
}
