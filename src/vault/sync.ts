// syncVault: indexes the markdown under a content root into a vault's collection. Refuses
// restricted roots (as given and after realpath); incremental (size and mtime unchanged → not
// read; read but the same hash → not re-parsed); a file gone from disk deactivates its document
// ('deleted-on-disk') unless the walk stopped early; a file that comes back reactivates it.
// Forgotten documents stay forgotten. Writes in small transactions.
import { readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

import type { Scrubber } from '../memory/index.js';
import { INTERNAL_COLLECTION, type Store, type VaultSyncState } from '../store/index.js';
import { VAULT_NAME } from './config.js';
import { VaultInputError } from './errors.js';
import { compileGlob } from './glob.js';
import { type PreparedDocument, prepareDocument, sha256, writeDocument } from './ingest.js';
import { assertAllowed } from './restricted.js';
import { type Skipped, walkVault, type WalkedFile, type WalkLimits } from './walk.js';

/** Deactivation reasons a re-sync reverses when the file is there again. */
export const SYNC_REASONS = new Set(['deleted-on-disk', 'skipped-on-sync']);
const BATCH = 100;

export interface SyncOptions {
  vault: string;
  contentRoot: string;
  /** Default `**\/*.md`. */
  pattern?: string | undefined;
  /** Default the vault name. */
  collection?: string | undefined;
  scrubber: Scrubber;
  limits?: Partial<WalkLimits> | undefined;
  now?: () => number;
}

export interface SyncReport {
  vault: string;
  collection: string;
  /** The content root after resolving symlinks. */
  contentRoot: string;
  pattern: string;
  added: number;
  updated: number;
  unchanged: number;
  reactivated: number;
  deactivated: number;
  /** Files read from disk (the rest were judged unchanged by size and mtime). */
  read: number;
  /** Fragments written for added and updated documents. */
  fragments: number;
  /** Secrets redacted in what was written. */
  redacted: number;
  skipped: Skipped[];
  /** A walk limit stopped early: nothing was deactivated for missing files. */
  truncated: boolean;
  ms: number;
}

function checkNames(vault: string, collection: string): void {
  if (!VAULT_NAME.test(vault)) throw new VaultInputError(`vault: bad name "${vault}"`, 'vault');
  if (collection === INTERNAL_COLLECTION)
    throw new VaultInputError(
      `collection_name: ${INTERNAL_COLLECTION} is reserved`,
      'collection_name',
    );
  if (!VAULT_NAME.test(collection))
    throw new VaultInputError(`collection_name: bad name "${collection}"`, 'collection_name');
}

/** The content root, absolute and real; refused when restricted either way or not a directory. */
export async function resolveContentRoot(contentRoot: string): Promise<string> {
  const given = resolve(contentRoot.replace(/^~(?=$|\/)/, homedir()));
  assertAllowed(given);
  const real = await realpath(given).catch(() => undefined);
  if (real === undefined)
    throw new VaultInputError(`content_root: ${given} does not exist`, 'content_root');
  assertAllowed(real);
  if (!(await stat(real)).isDirectory())
    throw new VaultInputError(`content_root: ${given} is not a directory`, 'content_root');
  return real;
}

type Plan =
  | { kind: 'unchanged'; file: WalkedFile; state: VaultSyncState; touch: boolean }
  | { kind: 'write'; file: WalkedFile; state: VaultSyncState | undefined; doc: PreparedDocument };

/** Indexes `contentRoot` into the vault. @throws VaultRestrictedPathError, VaultInputError. */
export async function syncVault(store: Store, options: SyncOptions): Promise<SyncReport> {
  const now = options.now ?? Date.now;
  const started = Date.now();
  const { vault, scrubber } = options;
  const collectionName = options.collection ?? vault;
  const pattern = options.pattern ?? '**/*.md';
  checkNames(vault, collectionName);
  const match = compileGlob(pattern);
  const root = await resolveContentRoot(options.contentRoot);
  const collection = await store.write((tx) =>
    store.vaultIndex.ensureCollection(tx, {
      vault,
      name: collectionName,
      contentRoot: root,
      pattern,
      now: now(),
    }),
  );
  const states = await store.read((tx) => store.vaultIndex.syncState(tx, collection.id));
  const byPath = new Map(states.map((s) => [s.path, s]));
  const walk = await walkVault(root, match, options.limits);
  const report: SyncReport = {
    ...{ vault, collection: collectionName, contentRoot: root, pattern },
    ...{ added: 0, updated: 0, unchanged: 0, reactivated: 0, deactivated: 0, read: 0 },
    ...{ fragments: 0, redacted: 0, skipped: [...walk.skipped], truncated: walk.truncated, ms: 0 },
  };

  async function plan(file: WalkedFile): Promise<Plan | undefined> {
    const state = byPath.get(file.path);
    if (state !== undefined && !state.active && !SYNC_REASONS.has(state.deactivationReason ?? '')) {
      report.skipped.push({
        path: file.path,
        reason: `inactive (${state.deactivationReason ?? 'deactivated'}); not re-indexed`,
      });
      return undefined;
    }
    if (state?.origin === 'fs' && state.size === file.size && state.mtime === file.mtime)
      return { kind: 'unchanged', file, state, touch: false };
    const text = await readFile(file.real, 'utf8').catch(() => undefined);
    if (text === undefined) {
      report.skipped.push({ path: file.path, reason: 'unreadable file' });
      return undefined;
    }
    report.read += 1;
    const hash = sha256(text);
    if (state !== undefined && state.contentHash === hash)
      return { kind: 'unchanged', file, state, touch: true };
    const doc = await prepareDocument(scrubber, {
      ...{ vault, collectionId: collection.id, path: file.path, text, contentHash: hash },
      ...{ size: file.size, mtime: file.mtime, origin: 'fs' as const, now: now() },
    });
    return { kind: 'write', file, state, doc };
  }

  async function apply(plans: readonly Plan[]): Promise<void> {
    await store.write(async (tx) => {
      for (const p of plans) {
        if (p.kind === 'write') await writeDocument(store, tx, p.doc);
        else if (p.touch)
          await store.vaultIndex.touchDocument(tx, p.state.id, p.file.size, p.file.mtime);
        if (p.state !== undefined && !p.state.active)
          await store.vaultIndex.reactivate(tx, vault, [p.state.id]);
      }
    });
    for (const p of plans) {
      if (p.state !== undefined && !p.state.active) report.reactivated += 1;
      if (p.kind === 'unchanged') report.unchanged += 1;
      else {
        report[p.state === undefined ? 'added' : 'updated'] += 1;
        report.fragments += p.doc.fragments.length;
        report.redacted += p.doc.redacted;
      }
    }
  }

  const seen = new Set<string>();
  for (let i = 0; i < walk.files.length; i += BATCH) {
    const plans: Plan[] = [];
    for (const file of walk.files.slice(i, i + BATCH)) {
      seen.add(file.path);
      const p = await plan(file);
      if (p !== undefined) plans.push(p);
    }
    if (plans.length > 0) await apply(plans);
  }

  const skipped = new Set(walk.skipped.map((s) => s.path));
  const gone = states.filter((s) => s.active && s.origin === 'fs' && !seen.has(s.path));
  const deleted = walk.truncated ? [] : gone.filter((s) => !skipped.has(s.path));
  const hidden = gone.filter((s) => skipped.has(s.path));
  const at = now();
  await store.write(async (tx) => {
    await store.vaultIndex.deactivate(
      tx,
      vault,
      deleted.map((s) => s.id),
      'deleted-on-disk',
      at,
    );
    await store.vaultIndex.deactivate(
      tx,
      vault,
      hidden.map((s) => s.id),
      'skipped-on-sync',
      at,
    );
    await store.vaultIndex.markSynced(tx, collection.id, at);
  });
  report.deactivated = deleted.length + hidden.length;
  report.ms = Date.now() - started;
  return report;
}
