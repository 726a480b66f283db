// The vault's mutations and lifecycle: pin/unpin, snooze/unsnooze and forget (deactivate) on the
// document the target cascade finds (forget only past the confidence gate, and only with
// confirm), the lifecycle counts, the sweep that archives stale documents (a dry run unless
// asked; it never deletes a row) and restore. Every write is one store transaction.
import type { Store, VaultDocumentMeta, VaultFilter } from '../../store/index.js';
import { dropDocumentFacts } from '../facts.js';
import { textHits } from './candidates.js';
import type { RetrieveDeps } from './search.js';
import { findTarget, type Target } from './target.js';

/** Days after which an unpinned, never-reopened document of a type is archived by the sweep. */
export const ARCHIVE_AFTER_DAYS: Readonly<Record<string, number>> = {
  handoff: 90,
  progress: 90,
  session: 90,
  observation: 180,
  note: 365,
  research: 365,
  deduction: 365,
};
/** A document opened (returned by get) within this many days is never swept. */
export const RECENT_ACCESS_DAYS = 30;
const DAY = 86_400_000;

export interface LifecycleDeps extends RetrieveDeps {
  readonly store: Store;
}

export interface MutationAnswer {
  action:
    | 'pinned'
    | 'unpinned'
    | 'snoozed'
    | 'unsnoozed'
    | 'forgotten'
    | 'preview'
    | 'ambiguous'
    | 'not-found';
  target: Target;
  document: Target['candidates'][number] | null;
  until?: string | null;
  message: string;
}

const targetFilter = (vault: string, now: number): VaultFilter => ({
  vault,
  now,
  includeInternal: true,
  includeSnoozed: true,
});

async function top(deps: LifecycleDeps, vault: string, query: string) {
  const target = await findTarget(deps, targetFilter(vault, deps.now()), query);
  return { target, doc: target.candidates[0] ?? null };
}

const notFound = (target: Target, query: string): MutationAnswer => ({
  action: 'not-found',
  target,
  document: null,
  message: `no matching memory found for "${query}" (path, BM25, title and vector all came back empty)`,
});

export async function pinDocument(
  deps: LifecycleDeps,
  vault: string,
  query: string,
  unpin: boolean,
): Promise<MutationAnswer> {
  const { target, doc } = await top(deps, vault, query);
  if (doc === null) return notFound(target, query);
  await deps.store.write((tx) => deps.index.setPinned(tx, vault, [doc.documentId], !unpin));
  return {
    action: unpin ? 'unpinned' : 'pinned',
    target,
    document: doc,
    message: `${unpin ? 'unpinned' : 'pinned'} ${doc.path} (${doc.docid}), found by ${target.strategy}`,
  };
}

export async function snoozeDocument(
  deps: LifecycleDeps,
  vault: string,
  query: string,
  until: string | undefined,
): Promise<MutationAnswer> {
  const { target, doc } = await top(deps, vault, query);
  if (doc === null) return notFound(target, query);
  const at = until === undefined ? null : Date.parse(until);
  await deps.store.write((tx) => deps.index.setSnoozed(tx, vault, [doc.documentId], at));
  const when = at === null ? null : new Date(at).toISOString();
  return {
    action: at === null ? 'unsnoozed' : 'snoozed',
    target,
    document: doc,
    until: when,
    message:
      at === null
        ? `unsnoozed ${doc.path} (${doc.docid})`
        : `snoozed ${doc.path} (${doc.docid}) until ${when}`,
  };
}

/** Deactivates the target only when the gate passes and `confirm` is set; else says why not. */
export async function forgetDocument(
  deps: LifecycleDeps,
  vault: string,
  query: string,
  confirm: boolean,
): Promise<MutationAnswer> {
  const { target, doc } = await top(deps, vault, query);
  if (doc === null) return notFound(target, query);
  if (!target.confident) {
    return {
      action: 'ambiguous',
      target,
      document: null,
      message: `not confident enough to forget (top ${doc.score.toFixed(3)} by ${target.strategy}; needs ≥ 0.7 or a 0.2 gap): nothing changed, pick one of the candidates by path or docid`,
    };
  }
  if (!confirm) {
    return {
      action: 'preview',
      target,
      document: doc,
      message: `would forget ${doc.path} (${doc.docid}); call again with confirm: true`,
    };
  }
  await deps.store.write(async (tx) => {
    await deps.index.deactivate(tx, vault, [doc.documentId], 'forgotten', deps.now());
    await dropDocumentFacts(deps.store, tx, vault, [doc.documentId], deps.now());
  });
  return {
    action: 'forgotten',
    target,
    document: doc,
    message: `forgot ${doc.path} (${doc.docid}); the row is kept, inactive`,
  };
}

export interface LifecycleCounts {
  active: number;
  archived: number;
  forgotten: number;
  deactivated: number;
  pinned: number;
  snoozed: number;
}

export async function lifecycleStatus(
  deps: LifecycleDeps,
  vault: string,
): Promise<LifecycleCounts> {
  const stats = await deps.index.stats(vault, { now: deps.now() });
  const sum = (f: (s: (typeof stats)[number]) => number): number =>
    stats.reduce((n, s) => n + f(s), 0);
  return {
    active: sum((s) => s.active - s.archived),
    archived: sum((s) => s.archived),
    forgotten: sum((s) => s.deactivationReasons['forgotten'] ?? 0),
    deactivated: sum((s) => s.inactive),
    pinned: sum((s) => s.pinned),
    snoozed: sum((s) => s.snoozed),
  };
}

/** Whether the sweep archives `d` at `now` (and why). */
export function staleReason(d: VaultDocumentMeta, now: number): string | null {
  const days = ARCHIVE_AFTER_DAYS[d.contentType];
  if (days === undefined || d.pinned || d.archivedAt !== null || !d.active) return null;
  const age = (now - (d.authoredAt ?? d.modifiedAt)) / DAY;
  if (age < days) return null;
  if (d.lastAccessedAt !== null && (now - d.lastAccessedAt) / DAY < RECENT_ACCESS_DAYS) return null;
  return `${d.contentType} older than ${days} days (${Math.floor(age)}), not pinned, not opened in ${RECENT_ACCESS_DAYS} days`;
}

export interface SweepAnswer {
  dryRun: boolean;
  archived: number;
  candidates: { docid: string; path: string; collection: string; reason: string }[];
  message: string;
}

export async function lifecycleSweep(
  deps: LifecycleDeps,
  vault: string,
  dryRun: boolean,
): Promise<SweepAnswer> {
  const now = deps.now();
  const docs = await deps.index.listDocuments(vault);
  const stale = docs.flatMap((d) => {
    const reason = staleReason(d, now);
    return reason === null ? [] : [{ d, reason }];
  });
  const candidates = stale.map(({ d, reason }) => ({
    docid: `#${d.docid}`,
    path: d.path,
    collection: d.collection,
    reason,
  }));
  if (dryRun || stale.length === 0) {
    return {
      dryRun,
      archived: 0,
      candidates,
      message: `${stale.length} document(s) would be archived${dryRun ? ' (dry run: nothing changed)' : ''}`,
    };
  }
  const archived = await deps.store.write((tx) =>
    deps.index.archive(
      tx,
      vault,
      stale.map((s) => s.d.id),
      now,
    ),
  );
  return {
    dryRun,
    archived,
    candidates,
    message: `archived ${archived} document(s); lifecycle_restore brings them back; no row was deleted`,
  };
}

export interface RestoreArgs {
  query?: string | undefined;
  collection?: string | undefined;
  all: boolean;
}

export async function lifecycleRestore(
  deps: LifecycleDeps,
  vault: string,
  a: RestoreArgs,
): Promise<{ restored: number; documents: { docid: string; path: string }[]; message: string }> {
  const now = deps.now();
  let ids: number[];
  if (a.query !== undefined) {
    const filter: VaultFilter = {
      vault,
      now,
      onlyArchived: true,
      includeInternal: true,
      ...(a.collection === undefined ? {} : { collections: [a.collection] }),
    };
    ids = [...new Set((await textHits(deps.index, a.query, filter, 200)).map((h) => h.documentId))];
  } else if (a.collection !== undefined || a.all) {
    const docs = await deps.index.listDocuments(
      vault,
      a.collection === undefined ? {} : { collections: [a.collection] },
    );
    ids = docs.filter((d) => d.archivedAt !== null).map((d) => d.id);
  } else {
    return {
      restored: 0,
      documents: [],
      message: 'nothing to restore: give query, collection or all: true',
    };
  }
  const rows = await deps.index.documentsById(vault, ids);
  const restored =
    ids.length === 0 ? 0 : await deps.store.write((tx) => deps.index.restore(tx, vault, ids));
  return {
    restored,
    documents: rows.map((r) => ({ docid: `#${r.docid}`, path: r.path })),
    message: `restored ${restored} archived document(s)`,
  };
}
