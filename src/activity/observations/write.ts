// Storing an observation: every text it carries (content, title, tags, metadata strings) is
// stripped of invisible characters and scrubbed of secrets before it is hashed, indexed or
// embedded, as every memory write is; the write's provenance is recorded with it. A `key` makes
// the write idempotent: same key and content → the stored one, same key and new content → the
// old one is superseded by the new.
import { randomUUID } from 'node:crypto';

import { contentHash, type MemoryScrubber } from '../../memory/index.js';
import { DomainError, InvalidInputError, stripInvisible } from '../../shared/index.js';
import {
  insertObservation,
  observationByKey,
  type Store,
  supersedeObservation,
} from '../../store/index.js';
import type { Provenance } from '../fields.js';
import type { ObservationType, StoredObservation } from './model.js';
import { toObservation } from './rows.js';

/** What a caller stores. Session, project and repository default to the provenance's. */
export interface ObservationInput {
  type: ObservationType;
  content: string;
  title?: string | undefined;
  tags?: readonly string[] | undefined;
  sessionId?: string | undefined;
  projectId?: string | undefined;
  repoId?: string | undefined;
  /** Idempotency key (e.g. `session-summary:<session id>`), unique among live observations. */
  key?: string | undefined;
  metadata?: Readonly<Record<string, unknown>> | undefined;
  /** Who wrote it: recorded with the observation. */
  provenance: Readonly<Partial<Provenance>>;
}

export interface WriteOptions {
  scrubber: MemoryScrubber;
  clock: () => number;
  onSaved?: (() => void) | undefined;
}

const TITLE_CHARS = 120;
const MAX_DEPTH = 8;

/** The first line of the content, shortened: the title when none is given. */
function titleOf(content: string): string {
  const line = content.trim().split('\n', 1)[0] ?? '';
  return line.length <= TITLE_CHARS ? line : `${line.slice(0, TITLE_CHARS - 1)}…`;
}

/** A JSON value with every string (keys too) scrubbed; nesting beyond MAX_DEPTH refused. */
async function scrubValue(
  value: unknown,
  clean: (s: string) => Promise<string>,
  depth: number,
): Promise<unknown> {
  if (depth > MAX_DEPTH) {
    throw new InvalidInputError(`nested deeper than ${MAX_DEPTH} levels`, 'data.metadata');
  }
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return Promise.all(value.map((v) => scrubValue(v, clean, depth + 1)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[await clean(k)] = await scrubValue(v, clean, depth + 1);
    }
    return out;
  }
  return value;
}

/** Builds `store` over a store. */
export function createWrite(store: Store, options: WriteOptions) {
  const clean = async (text: string): Promise<string> =>
    (await options.scrubber.scrub(stripInvisible(text))).text;

  async function scrubbedContent(raw: string): Promise<string> {
    const visible = stripInvisible(raw);
    if (visible.trim() === '') {
      throw new InvalidInputError(
        'must not be empty once invisible characters are removed',
        'data.content',
      );
    }
    const scrubbed = await options.scrubber.scrub(visible);
    if (scrubbed.onlySentinels) {
      throw new DomainError(
        'declined',
        `store_memory declined: the content is nothing but secrets (${scrubbed.text.trim().slice(0, 200)}); nothing was saved`,
      );
    }
    return scrubbed.text;
  }

  /**
   * Stores one observation (scrubbed, provenance recorded).
   * @throws DomainError('declined') when the content is nothing but secrets; InvalidInputError
   *   for content that is empty once invisible characters go, or metadata nested too deep.
   */
  return async function storeObservation(input: ObservationInput): Promise<StoredObservation> {
    const content = await scrubbedContent(input.content);
    const title = input.title === undefined ? titleOf(content) : await clean(input.title);
    const tags = [
      ...new Set((await Promise.all((input.tags ?? []).map(clean))).filter((t) => t !== '')),
    ];
    const metadata = (await scrubValue(input.metadata ?? {}, clean, 0)) as Record<string, unknown>;
    const p = input.provenance;
    const hash = contentHash(JSON.stringify([input.type, title, content, tags, metadata]));
    const key = input.key === undefined ? null : await clean(input.key);
    const result = await store.write(async (tx) => {
      const existing = key === null ? undefined : await observationByKey(tx, key);
      if (existing !== undefined && existing.content_hash === hash) {
        return { observation: toObservation(existing), deduplicated: true, replaced: null };
      }
      const now = options.clock();
      if (existing !== undefined) await supersedeObservation(tx, existing.rowid, now);
      const row = await insertObservation(tx, {
        id: randomUUID(),
        title,
        content,
        tags: JSON.stringify(tags),
        meta: JSON.stringify(metadata),
        content_hash: hash,
        created_at: now,
        resource: input.type,
        session_id: input.sessionId ?? p.session_id ?? null,
        project_id: input.projectId ?? p.project_id ?? null,
        repo_id: input.repoId ?? p.repo_id ?? null,
        obs_key: key,
        provenance: JSON.stringify(p),
        observed_at: now,
      });
      return {
        observation: toObservation(row),
        deduplicated: false,
        replaced: existing?.id ?? null,
      };
    });
    if (!result.deduplicated) options.onSaved?.();
    return result;
  };
}
