// inject_context: the most useful observations for the current session, repository and project
// packed into one block that fits a token budget counted with a real tokenizer (gpt-tokenizer,
// o200k_base). Usefulness = relevance to the query (when given), recency, type weight and
// locality (same session, repository, project). Everything left out is counted with its reason.
import { countTokens } from 'gpt-tokenizer';

import type { Memory } from '../../memory/index.js';
import { listObservations, observationFilter, type Store } from '../../store/index.js';
import {
  type InjectedContext,
  type InjectedItem,
  type InjectOmission,
  type Observation,
  type ObservationType,
  type OmitReason,
  TYPE_WEIGHTS,
} from './model.js';
import { toObservation } from './rows.js';

export interface InjectInput {
  maxTokens: number;
  types?: readonly ObservationType[] | undefined;
  tags?: readonly string[] | undefined;
  query?: string | undefined;
  /** The current session, repository and project (the caller's provenance unless given). */
  sessionId?: string | undefined;
  repoId?: string | undefined;
  projectId?: string | undefined;
}

export interface InjectDeps {
  store: Store;
  search: Memory['search'];
  vectors: boolean;
  clock: () => number;
}

export const INJECT_TOKENS = { default: 2000, max: 100_000 } as const;
/** Newest observations considered per call. */
const POOL = 500;
const ENTRY_CHARS = 1200;
const HALF_LIFE_MS = 24 * 3600 * 1000;
const HEADER = '## Observation memory (most useful first)';
const SHOWN_IDS = 20;

/** One entry of the block: a line naming it, then its content (shortened), indented. */
function entryText(o: Observation): string {
  const where = [o.observedAt.slice(0, 16).replace('T', ' '), o.sessionId ?? undefined]
    .filter((s) => s !== undefined)
    .join(', session ');
  const body = o.content.length <= ENTRY_CHARS ? o.content : `${o.content.slice(0, ENTRY_CHARS)}…`;
  const indented = body
    .trim()
    .split('\n')
    .map((l) => `  ${l}`.trimEnd())
    .join('\n');
  return `\n- [${o.type}] ${o.title} (${where}; id ${o.id})\n${indented}`;
}

function locality(o: Observation, input: InjectInput): number {
  if (input.sessionId !== undefined && o.sessionId === input.sessionId) return 1;
  if (input.repoId !== undefined && o.repoId === input.repoId) return 0.6;
  if (input.projectId !== undefined && o.projectId === input.projectId) return 0.4;
  return 0.2;
}

/** Why `o` is not a candidate at all, or null. */
function excluded(o: Observation, input: InjectInput): OmitReason | null {
  if (input.types !== undefined && !input.types.includes(o.type)) return 'filtered_by_type';
  const sameProject =
    input.projectId !== undefined && o.projectId !== null && o.projectId === input.projectId;
  if (input.projectId !== undefined && o.projectId !== null && !sameProject) return 'other_project';
  if (!sameProject && input.repoId !== undefined && o.repoId !== null && o.repoId !== input.repoId)
    return 'other_repository';
  return null;
}

const REASON_TEXT: Readonly<Record<OmitReason, string>> = {
  over_budget: 'over budget',
  filtered_by_type: 'filtered by type',
  other_project: 'other project',
  other_repository: 'other repository',
  not_relevant: 'not matching the query',
};

function footerOf(omitted: readonly InjectOmission[]): string {
  if (omitted.length === 0) return '';
  return `\n(left out: ${omitted.map((o) => `${o.count} ${REASON_TEXT[o.reason]}`).join(', ')})`;
}

/** Builds inject over the store and memory's search. */
export function createInject(deps: InjectDeps) {
  /** Relevance (0–1, relative to the best hit) of the pool's observations to `query`. */
  async function relevance(query: string, input: InjectInput): Promise<Map<string, number>> {
    const found = await deps.search({
      query,
      mode: deps.vectors ? 'hybrid' : 'fts',
      limit: POOL,
      scope: {},
      filter: observationFilter(deps.store.dialect, { resources: input.types, tags: input.tags }),
    });
    const best = found.results[0]?.score ?? 0;
    return new Map(found.results.map((h) => [h.id, best > 0 ? h.score / best : 1]));
  }

  /**
   * The block for `input` (never above maxTokens by the tokenizer's count), what went in and
   * what was left out with why.
   */
  return async function inject(input: InjectInput): Promise<InjectedContext> {
    const now = deps.clock();
    const pool = (
      await listObservations(
        deps.store,
        observationFilter(deps.store.dialect, { tags: input.tags }),
        POOL,
      )
    ).map(toObservation);
    const rel = input.query === undefined ? null : await relevance(input.query, input);
    const left = new Map<OmitReason, string[]>();
    const omit = (reason: OmitReason, id: string) =>
      left.set(reason, [...(left.get(reason) ?? []), id]);
    const scored: { o: Observation; score: number }[] = [];
    for (const o of pool) {
      const why = excluded(o, input) ?? (rel !== null && !rel.has(o.id) ? 'not_relevant' : null);
      if (why !== null) {
        omit(why, o.id);
        continue;
      }
      const age = Math.max(0, now - Date.parse(o.observedAt));
      const recency = Math.pow(0.5, age / HALF_LIFE_MS);
      const weight = TYPE_WEIGHTS[o.type];
      const near = locality(o, input);
      const score =
        rel === null
          ? 0.5 * recency + 0.3 * weight + 0.2 * near
          : 0.5 * (rel.get(o.id) ?? 0) + 0.25 * recency + 0.15 * weight + 0.1 * near;
      scored.push({ o, score });
    }
    scored.sort((a, b) => b.score - a.score || b.o.observedAt.localeCompare(a.o.observedAt));
    const included: InjectedItem[] = [];
    const parts: string[] = [];
    let used = countTokens(HEADER);
    const fitsHeader = used <= input.maxTokens;
    for (const { o, score } of scored) {
      const text = entryText(o);
      const tokens = countTokens(text);
      if (!fitsHeader || used + tokens > input.maxTokens) {
        omit('over_budget', o.id);
        continue;
      }
      used += tokens;
      parts.push(text);
      included.push({ id: o.id, type: o.type, score: Math.round(score * 1000) / 1000, tokens });
    }
    // Parts were counted one by one: the whole is counted again, and trimmed if merging across
    // the joins ever made it larger.
    let block = fitsHeader ? HEADER + parts.join('') : '';
    while (countTokens(block) > input.maxTokens && parts.length > 0) {
      parts.pop();
      const dropped = included.pop();
      if (dropped !== undefined) omit('over_budget', dropped.id);
      block = HEADER + parts.join('');
    }
    if (countTokens(block) > input.maxTokens) block = '';
    const omitted = [...left.entries()].map(([reason, ids]) => ({
      reason,
      count: ids.length,
      ids: ids.slice(0, SHOWN_IDS),
    }));
    const withFooter = block === '' ? block : block + footerOf(omitted);
    if (countTokens(withFooter) <= input.maxTokens) block = withFooter;
    const tokens = countTokens(block);
    return {
      block,
      tokens,
      maxTokens: input.maxTokens,
      included,
      omitted,
      considered: pool.length,
      message: injectMessage(included.length, pool.length, omitted, tokens, input.maxTokens),
    };
  };
}

function injectMessage(
  n: number,
  considered: number,
  omitted: readonly InjectOmission[],
  tokens: number,
  max: number,
): string {
  if (considered === 0) return 'No observation is stored that these tags admit: nothing to inject.';
  const out = omitted.map((o) => `${o.count} ${REASON_TEXT[o.reason]}`).join(', ');
  return `${n} of ${considered} observations injected in ${tokens} of ${max} tokens${out === '' ? '' : `; left out: ${out}`}.`;
}
