// The vault's maintenance read-outs: status (a quick health check), index_stats (content types,
// staleness, embedding coverage) and memory_stats (lifecycle and ranking-metadata aggregates per
// collection: counts over all rows, distributions over active rows only). Read-only.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { VaultDocumentMeta, VaultExtractionTotals } from '../store/index.js';
import { VaultInputError } from './errors.js';
import type { VaultContext } from './service.js';

const DAY = 86_400_000;
/** Files stat'ed at most per index_stats call to count what changed on disk since the sync. */
export const STALENESS_STAT_LIMIT = 5000;

export interface VaultStatus {
  vault: string;
  documents: number;
  collections: {
    name: string;
    contentRoot: string;
    documents: number;
    lastSyncedAt: number | null;
  }[];
  pendingPostings: number;
  pendingVectors: number | null;
  embedder: string | null;
  healthy: boolean;
  /**
   * Model fact extraction (CAIRN_VAULT_EXTRACTION): documents waiting (retries included), done
   * (model facts), failed (deterministic facts kept, `reasons`), triples dropped by validation.
   * Null when facts come from the deterministic extractor alone.
   */
  extraction: (VaultExtractionTotals & { extractor: string }) | null;
  notes: string[];
}

async function extractionStatus(
  ctx: VaultContext,
  vault: string,
  notes: string[],
): Promise<VaultStatus['extraction']> {
  const x = ctx.extraction;
  if (x === null) return null;
  const t = await x.totals(vault);
  if (t.pending > 0)
    notes.push(`${t.pending} document(s) waiting for fact extraction by ${x.extractor}`);
  if (t.failed > 0) {
    const why = t.reasons.map((r) => `${r.reason} ×${r.documents}`).join('; ');
    notes.push(
      `${t.failed} document(s) keep their deterministic facts: extraction by ${x.extractor} failed (${why})`,
    );
  }
  return { extractor: x.extractor, ...t };
}

export async function vaultStatus(ctx: VaultContext, vault: string): Promise<VaultStatus> {
  const { index, embedder, now } = ctx.deps;
  const stats = await index.stats(vault, {
    now: now(),
    ...(embedder === null ? {} : { model: embedder.model }),
  });
  const pendingPostings = await index.pendingPostings();
  const pendingVectors =
    embedder === null ? null : await index.pendingVectors(embedder.model, vault);
  const notes: string[] = [];
  if (stats.length === 0) notes.push(`vault ${vault} has no collections yet: run vault_sync`);
  if (pendingPostings > 0)
    notes.push(`${pendingPostings} fragment(s) still being added to the full-text index`);
  if (pendingVectors !== null && pendingVectors > 0)
    notes.push(`${pendingVectors} fragment(s) waiting for vectors`);
  const extraction = await extractionStatus(ctx, vault, notes);
  if (embedder === null)
    notes.push(
      'no embedder: vsearch and find_similar are unavailable, query runs without its vector legs',
    );
  return {
    vault,
    documents: stats.reduce((n, s) => n + s.active, 0),
    collections: stats.map((s) => ({
      name: s.collection,
      contentRoot: s.contentRoot,
      documents: s.active,
      lastSyncedAt: s.lastSyncedAt,
    })),
    pendingPostings,
    pendingVectors,
    embedder: embedder?.model ?? null,
    healthy: pendingPostings === 0 && (pendingVectors ?? 0) === 0 && stats.length > 0,
    extraction,
    notes,
  };
}

/** Active documents of `collection` whose file on disk has another mtime or size, or is gone. */
async function changedOnDisk(
  root: string,
  docs: readonly VaultDocumentMeta[],
): Promise<{ changed: number; checked: number }> {
  let changed = 0;
  const sample = docs.filter((d) => d.origin === 'fs').slice(0, STALENESS_STAT_LIMIT);
  for (const d of sample) {
    const s = await stat(join(root, d.path)).catch(() => undefined);
    if (s === undefined || s.size !== d.size || Math.trunc(s.mtimeMs) !== Math.trunc(d.mtime))
      changed += 1;
  }
  return { changed, checked: sample.length };
}

export async function indexStats(ctx: VaultContext, vault: string) {
  const { index, embedder, now } = ctx.deps;
  const t = now();
  const stats = await index.stats(vault, {
    now: t,
    ...(embedder === null ? {} : { model: embedder.model }),
  });
  const docs = await index.listDocuments(vault);
  return {
    vault,
    embedder: embedder?.model ?? null,
    collections: await Promise.all(
      stats.map(async (s) => {
        const mine = docs.filter((d) => d.collection === s.collection);
        const disk = s.contentRoot === '' ? null : await changedOnDisk(s.contentRoot, mine);
        return {
          collection: s.collection,
          documents: s.active,
          contentTypes: s.contentTypes,
          fragments: s.fragments,
          embedded: embedder === null ? null : s.embedded,
          embeddingCoverage:
            embedder === null || s.fragments === 0 ? null : s.embedded / s.fragments,
          lastSyncedAt: s.lastSyncedAt,
          daysSinceSync: s.lastSyncedAt === null ? null : (t - s.lastSyncedAt) / DAY,
          changedOnDisk: disk,
        };
      }),
    ),
  };
}

export interface Distribution {
  mean: number | null;
  median: number | null;
  min: number | null;
  max: number | null;
}

export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { mean: null, median: null, min: null, max: null };
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
  return {
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    median,
    min: s[0] ?? null,
    max: s[s.length - 1] ?? null,
  };
}

function collectionStats(name: string, rows: readonly VaultDocumentMeta[], now: number) {
  const active = rows.filter((r) => r.active);
  const origin = (o: 'fs' | 'api') => {
    const of = rows.filter((r) => r.origin === o);
    return {
      total: of.length,
      active: of.filter((r) => r.active).length,
      inactive: of.filter((r) => !r.active).length,
    };
  };
  const created = rows.map((r) => r.createdAt);
  const reasons: Record<string, number> = {};
  for (const r of rows.filter((x) => !x.active)) {
    const key = r.deactivationReason ?? 'null';
    reasons[key] = (reasons[key] ?? 0) + 1;
  }
  return {
    collection: name,
    counts: { total: rows.length, active: active.length, inactive: rows.length - active.length },
    origin: { fs: origin('fs'), api: origin('api') },
    pinned: rows.filter((r) => r.pinned).length,
    accrual: {
      last7d: rows.filter((r) => now - r.createdAt <= 7 * DAY).length,
      last30d: rows.filter((r) => now - r.createdAt <= 30 * DAY).length,
      firstCreatedAt: created.length === 0 ? null : Math.min(...created),
      lastCreatedAt: created.length === 0 ? null : Math.max(...created),
    },
    distributions: {
      accessCount: distribution(active.map((r) => r.accessCount)),
      confidence: distribution(active.map((r) => r.confidence)),
      qualityScore: distribution(active.map((r) => r.qualityScore)),
      ageDays: distribution(active.map((r) => (now - (r.authoredAt ?? r.modifiedAt)) / DAY)),
    },
    deactivationReasons: reasons,
  };
}

/** memory_stats. @throws VaultInputError naming `collection` (with the list) for an unknown one. */
export async function memoryStats(ctx: VaultContext, vault: string, collection?: string) {
  const { index, now } = ctx.deps;
  const names = (await index.collections(vault)).map((c) => c.name);
  if (collection !== undefined && !names.includes(collection)) {
    throw new VaultInputError(
      `collection: unknown collection "${collection}" in vault ${vault}; available: ${names.join(', ') || '(none)'}`,
      'collection',
    );
  }
  const rows = await index.listDocuments(vault, { includeInactive: true });
  const t = now();
  return {
    vault,
    collections: (collection === undefined ? names : [collection]).map((n) =>
      collectionStats(
        n,
        rows.filter((r) => r.collection === n),
        t,
      ),
    ),
  };
}
