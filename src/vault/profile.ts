// profile: the user profile of a vault, built deterministically from the store: static facts
// (the graph's durable current facts by evidence, preference and decision documents) and dynamic
// context (recent sessions, diary entries, handoffs and progress; open items). Cached in
// vault_profiles with a hash of its inputs: a get serves the cache while the inputs are
// unchanged and rebuilds (saying so) when they changed. No MCP here.
import { createHash } from 'node:crypto';

import { z } from 'zod';

import { type Predicate, PREDICATES } from '../graph/extract/index.js';
import { isoTime } from '../shared/index.js';
import {
  countCurrentTriples,
  factEvidence,
  profileDocuments,
  type ProfileDocumentRow,
  profileFacts,
  type Queryable,
  readVaultProfile,
  type Store,
  type VaultProfileRow,
  writeVaultProfile,
} from '../store/index.js';
import { vaultGraphName } from './facts.js';

export const profileInput = z.object({
  rebuild: z.boolean({ error: () => 'rebuild must be true or false' }).default(false),
});

/** Predicates of events and causes rather than durable facts: left out of the profile. */
const EVENT_PREDICATES: ReadonlySet<Predicate> = new Set(['blocks', 'caused_by', 'created']);
/** Predicates of durable facts about the user, the team and the project. */
export const PROFILE_PREDICATES = PREDICATES.filter((p) => !EVENT_PREDICATES.has(p));
export const PROFILE_MAX_FACTS = 20;
export const PROFILE_MAX_DOCUMENTS = 10;
export const PROFILE_WINDOW_DAYS = 14;
/** Content types of static documents, of recent activity; frontmatter statuses still open. */
export const STATIC_TYPES = ['preference', 'decision'] as const;
export const ACTIVITY_TYPES = ['session', 'handoff', 'progress'] as const;
export const OPEN_STATUSES = ['open', 'in_progress', 'in-progress', 'blocked', 'todo'] as const;
const DAY_MS = 86_400_000;

export interface ProfileSource {
  docid: string;
  collection: string;
  path: string;
  fact: string;
}

export interface ProfileFact {
  subject: string;
  predicate: string;
  object: string;
  evidenceCount: number;
  /** When the newest evidence was seen (ms). */
  at: number;
  /** The document of the newest evidence (null when it names no vault document). */
  source: ProfileSource | null;
}

export interface ProfileDocument {
  docid: string;
  collection: string;
  path: string;
  title: string;
  type: string;
  /** The effective time: authored, else modified (ms). */
  at: number;
  status: string | null;
}

/** A bounded list: what was kept, how many matched, and whether the rest was cut. */
export interface Listed<T> {
  items: T[];
  total: number;
  truncated: boolean;
}

export interface StaticFacts {
  facts: Listed<ProfileFact>;
  documents: Listed<ProfileDocument>;
  /** Null when something was found; else why this part is empty. */
  empty: string | null;
}

export interface DynamicContext {
  window: { days: number; startedAt: number };
  recent: Listed<ProfileDocument>;
  openItems: Listed<ProfileDocument>;
  empty: string | null;
}

export interface Profile {
  static: StaticFacts;
  dynamic: DynamicContext;
}

const listed = <R, T>(r: { rows: R[]; total: number }, map: (row: R) => T): Listed<T> => ({
  items: r.rows.map(map),
  total: r.total,
  truncated: r.total > r.rows.length,
});

const toDocument = (r: ProfileDocumentRow): ProfileDocument => ({
  docid: `#${r.docid}`,
  ...{ collection: r.collection, path: r.path, title: r.title },
  ...{ type: r.contentType, at: r.at, status: r.status },
});

/** The graph's durable facts, most evidence first, each with its newest source. */
async function graphFacts(
  store: Store,
  tx: Queryable,
  vault: string,
): Promise<{ facts: Listed<ProfileFact>; why: string | null }> {
  const none = { items: [], total: 0, truncated: false };
  const graphId = await store.graphIndex.findGraph(tx, vaultGraphName(vault));
  if (graphId === undefined)
    return { facts: none, why: 'nothing has been extracted into its graph yet' };
  const found = await profileFacts(tx, graphId, PROFILE_PREDICATES, PROFILE_MAX_FACTS);
  const evidence = await factEvidence(
    tx,
    found.rows.map((r) => r.id),
    1,
  );
  const facts = listed(found, (r) => {
    const e = evidence.rows.find((x) => x.tripleId === r.id);
    const source =
      e === undefined || e.docid === null
        ? null
        : {
            docid: `#${e.docid}`,
            collection: e.collection ?? '',
            path: e.path ?? '',
            fact: e.fact,
          };
    const { subject, predicate, object, evidenceCount } = r;
    return { subject, predicate, object, evidenceCount, at: r.newestAt, source };
  });
  if (facts.total > 0) return { facts, why: null };
  const current = await countCurrentTriples(tx, graphId);
  const why =
    current === 0
      ? 'its graph holds no current facts'
      : `its graph's ${current} current fact(s) have none of the profile predicates (${PROFILE_PREDICATES.join(', ')})`;
  return { facts, why };
}

async function staticFacts(
  store: Store,
  tx: Queryable,
  vault: string,
  now: number,
): Promise<StaticFacts> {
  const filter = { vault, now, includeInternal: true };
  const { facts, why } = await graphFacts(store, tx, vault);
  const q = { types: STATIC_TYPES, limit: PROFILE_MAX_DOCUMENTS };
  const documents = listed(await profileDocuments(tx, filter, q), toDocument);
  const empty =
    facts.total === 0 && documents.total === 0
      ? `no static facts in vault ${vault}: ${why ?? 'none found'}, and no ${STATIC_TYPES.join(' or ')} documents`
      : null;
  return { facts, documents, empty };
}

async function dynamicContext(tx: Queryable, vault: string, now: number): Promise<DynamicContext> {
  const filter = { vault, now, includeInternal: true };
  const startedAt = now - PROFILE_WINDOW_DAYS * DAY_MS;
  const limit = PROFILE_MAX_DOCUMENTS;
  const recent = listed(
    await profileDocuments(tx, filter, { types: ACTIVITY_TYPES, since: startedAt, limit }),
    toDocument,
  );
  const open = { statuses: OPEN_STATUSES, limit };
  const openItems = listed(await profileDocuments(tx, filter, open), toDocument);
  let empty: string | null = null;
  if (recent.total === 0 && openItems.total === 0) {
    const older = await profileDocuments(tx, filter, { types: ACTIVITY_TYPES, limit: 0 });
    const kinds = `${ACTIVITY_TYPES.join(', ')} documents (diary entries are sessions)`;
    empty =
      older.total === 0
        ? `no dynamic context in vault ${vault}: no ${kinds} at all, and no open items (frontmatter status ${OPEN_STATUSES.join(', ')})`
        : `no dynamic context in vault ${vault}: none of its ${older.total} ${kinds} is from the last ${PROFILE_WINDOW_DAYS} days, and no open items`;
  }
  return { window: { days: PROFILE_WINDOW_DAYS, startedAt }, recent, openItems, empty };
}

/** The hash of what a profile was built from: everything but the moving window start. */
function sourceHash(p: Profile): string {
  const { window, ...dynamic } = p.dynamic;
  const inputs = { static: p.static, dynamic: { ...dynamic, days: window.days } };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

export interface ProfileAnswer extends Profile {
  vault: string;
  /** When the profile served was built (ms). */
  builtAt: number;
  /** `cache`: the stored profile, its inputs unchanged; `built`: built by this call. */
  served: 'cache' | 'built';
  /** Why it was built: asked (`rebuild`), the cache was stale, or there was none. */
  reason: 'unchanged' | 'requested' | 'stale' | 'first';
  /** The cached profile's inputs had changed since it was built (it was rebuilt). */
  stale: boolean;
  /** The cached profile this call replaced, if any. */
  previous: { builtAt: number } | null;
  sourceHash: string;
  message: string;
}

function message(a: Omit<ProfileAnswer, 'message'>): string {
  const head = `profile of vault ${a.vault}`;
  const before = a.previous === null ? '' : isoTime(a.previous.builtAt);
  if (a.reason === 'unchanged')
    return `${head}: cached, built ${isoTime(a.builtAt)}; its inputs are unchanged since`;
  if (a.reason === 'stale')
    return `${head}: rebuilt, the cached one (built ${before}) was stale: its inputs changed`;
  if (a.reason === 'requested')
    return `${head}: rebuilt on request${a.previous === null ? '' : ` (previous build ${before})`}`;
  return `${head}: built (there was no cached profile)`;
}

/** The stored profile as served: its own parts and build time (its JSON is ours). */
function fromCache(vault: string, cached: VaultProfileRow): ProfileAnswer {
  const done = {
    static: JSON.parse(cached.staticFacts) as StaticFacts,
    dynamic: JSON.parse(cached.dynamicContext) as DynamicContext,
    ...{ vault, builtAt: cached.builtAt, sourceHash: cached.sourceHash, previous: null },
    ...{ served: 'cache' as const, reason: 'unchanged' as const, stale: false },
  };
  return { ...done, message: message(done) };
}

/**
 * The vault's profile: the cached one while its inputs are unchanged, else (or with `rebuild`)
 * built now and stored, saying why.
 */
export async function getProfile(
  store: Store,
  vault: string,
  opts: { rebuild: boolean; now: number },
): Promise<ProfileAnswer> {
  const { now } = opts;
  const fresh = await store.read(async (tx) => ({
    static: await staticFacts(store, tx, vault, now),
    dynamic: await dynamicContext(tx, vault, now),
  }));
  const hash = sourceHash(fresh);
  const cached = await readVaultProfile(store, vault);
  const previous = cached === undefined ? null : { builtAt: cached.builtAt };
  if (!opts.rebuild && cached !== undefined && cached.sourceHash === hash)
    return fromCache(vault, cached);
  await store.write((tx) =>
    writeVaultProfile(tx, vault, {
      staticFacts: JSON.stringify(fresh.static),
      dynamicContext: JSON.stringify(fresh.dynamic),
      sourceHash: hash,
      builtAt: now,
    }),
  );
  const stale = cached !== undefined && cached.sourceHash !== hash;
  const reason: ProfileAnswer['reason'] = opts.rebuild
    ? 'requested'
    : cached === undefined
      ? 'first'
      : 'stale';
  const a = { ...fresh, vault, builtAt: now, sourceHash: hash, previous, stale };
  const done = { ...a, served: 'built' as const, reason };
  return { ...done, message: message(done) };
}
