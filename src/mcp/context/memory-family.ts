// The memory family (spec "Memory Tool Family"): store_memory, get_memories, list_memories,
// memory_timeline, inject_context. Thin handlers over core.observations
// (src/activity/observations); each tool is one of the spec's actions, `resource` its
// observation type. Provenance is required (family `memory`) and recorded on every write.
import {
  getMemoriesInput,
  INJECT_TOKENS,
  injectContextInput,
  listMemoriesInput,
  memoryTimelineInput,
  observationOf,
  queryOf,
  storeMemoryInput,
} from '../../activity/observations/index.js';
import type { Core } from '../../core/index.js';
import { InvalidInputError } from '../../shared/index.js';
import { type ContextFamily, provenancedTool } from './family.js';
import { gotText, injectText, listText, storedText, timelineText } from './memory-text.js';

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

function memoryTools(core: Core) {
  const obs = core.observations;
  return [
    provenancedTool('memory', {
      name: 'store_memory',
      description:
        'Store an observation in memory: `resource` is its type (observation, execution, quality_gate, error_pattern, session), `data` holds content (required), title, tags, session_id / project_id / repo_id (default: the call’s provenance), key and metadata. Text is scrubbed of secrets before it is stored; the provenance of the call is recorded with it. With `key`, storing the same content again stores nothing new and new content replaces the old observation.',
      input: storeMemoryInput,
      annotations: {
        title: 'Store an observation',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      handler: async (a, ctx) => {
        const stored = await obs.store(observationOf(a, ctx.provenance));
        return { text: storedText(stored), data: { ...stored } };
      },
    }),
    provenancedTool('memory', {
      name: 'get_memories',
      description:
        'Read observations by `ids` (at most 100), in the order asked, with their content, tags, session, project, repository, metadata and provenance. Says which ids were not found, and with `resource` which are of another type.',
      input: getMemoriesInput,
      annotations: { title: 'Get observations', ...READ_ONLY },
      handler: async (a) => {
        const got = await obs.get(a.ids);
        const otherType =
          a.resource === undefined ? [] : got.observations.filter((o) => o.type !== a.resource);
        const observations = got.observations.filter((o) => !otherType.includes(o));
        const out = { observations, missing: got.missing, otherType: otherType.map((o) => o.id) };
        return { text: gotText(out), data: out };
      },
    }),
    provenancedTool('memory', {
      name: 'list_memories',
      description:
        'List observations, newest first, narrowed by `resource`, `tags` (all of them), `session_id`, `project_id`, `repo_id`; with `query`, ranked by relevance instead (memory search: BM25, fused with vectors when an embedder is configured). `limit` default 20, at most 200. Says when nothing is stored, when the filters admit nothing, and when the query matched nothing.',
      input: listMemoriesInput,
      annotations: { title: 'List observations', ...READ_ONLY },
      handler: async (a) => {
        const list = await obs.list({ ...queryOf(a), query: a.query, limit: a.limit });
        return { text: listText(list), data: { ...list } };
      },
    }),
    provenancedTool('memory', {
      name: 'memory_timeline',
      description:
        'Observations in time order around `anchor_id`: `depth_before` older and `depth_after` newer (default 5 each, at most 100), within ± `window_secs` of the anchor when given. Without an anchor: the newest `depth_before` of the filtered set (within the last `window_secs`). `resource`, `tags`, `session_id`, `project_id`, `repo_id` narrow the neighbours; the anchor is always shown.',
      input: memoryTimelineInput,
      annotations: { title: 'Observation timeline', ...READ_ONLY },
      handler: async (a) => {
        const timeline = await obs.timeline({
          ...queryOf(a),
          anchorId: a.anchor_id,
          depthBefore: a.depth_before,
          depthAfter: a.depth_after,
          windowSecs: a.window_secs,
        });
        return { text: timelineText(timeline), data: { ...timeline } };
      },
    }),
    provenancedTool('memory', {
      name: 'inject_context',
      description:
        'One block of the most useful observations for the current session, repository and project (the call’s provenance unless `session_id`, `repo_id`, `project_id` say otherwise) that fits `max_tokens` (default 2000, at most 100,000; counted with the o200k_base tokenizer). Ranked by relevance to `query` when given, recency, type (error_pattern, quality_gate, session, execution, observation) and locality; `observation_types` (or `resource`) and `tags` narrow it. Says what it left out and why: over budget, filtered by type, other project, other repository, not matching the query.',
      input: injectContextInput,
      annotations: { title: 'Inject context', ...READ_ONLY },
      handler: async (a, ctx) => {
        const types = a.observation_types ?? (a.resource === undefined ? undefined : [a.resource]);
        if (a.resource !== undefined && types !== undefined && !types.includes(a.resource)) {
          throw new InvalidInputError('is not among observation_types', 'resource');
        }
        const p = ctx.provenance;
        const injected = await obs.inject({
          maxTokens: a.max_tokens ?? INJECT_TOKENS.default,
          types,
          tags: a.tags,
          query: a.query,
          sessionId: a.session_id ?? p.session_id,
          repoId: a.repo_id ?? p.repo_id,
          projectId: a.project_id ?? p.project_id,
        });
        return { text: injectText(injected), data: { ...injected } };
      },
    }),
  ];
}

export const memoryFamily: ContextFamily = { name: 'memory', tools: memoryTools };
