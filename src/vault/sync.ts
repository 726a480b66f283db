// syncVault: indexes the markdown under a content root into a vault's collection. Refuses
// restricted roots (as given and after realpath); incremental (size and mtime unchanged → not
// read; read but the same hash → not re-parsed); a file gone from disk deactivates its document
// ('deleted-on-disk') unless the walk stopped early; a file that comes back reactivates it.
// Forgotten documents stay forgotten. Writes in small transactions.
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

import type { Scrubber } from '../memory/index.js';
import { INTERNAL_COLLECTION, type Store } from '../store/index.js';
import { VAULT_NAME } from './config.js';
import { VaultInputError } from './errors.js';
import { compileGlob } from './glob.js';
import { assertAllowed } from './restricted.js';
import { SyncRun, type SyncReport } from './sync-run.js';
import { walkVault, type WalkLimits } from './walk.js';

export type { SyncReport } from './sync-run.js';

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

/**
 * A directory the vault reads (a content root, beads_sync's project): absolute and real; refused
 * when restricted either way or not a directory, naming `field`.
 */
export async function resolveContentRoot(
  contentRoot: string,
  field = 'content_root',
): Promise<string> {
  const given = resolve(contentRoot.replace(/^~(?=$|\/)/, homedir()));
  assertAllowed(given);
  const real = await realpath(given).catch(() => undefined);
  if (real === undefined) throw new VaultInputError(`${field}: ${given} does not exist`, field);
  assertAllowed(real);
  if (!(await stat(real)).isDirectory())
    throw new VaultInputError(`${field}: ${given} is not a directory`, field);
  return real;
}

/** Indexes `contentRoot` into the vault. @throws VaultRestrictedPathError, VaultInputError. */
export async function syncVault(store: Store, options: SyncOptions): Promise<SyncReport> {
  const now = options.now ?? Date.now;
  const started = Date.now();
  const { vault } = options;
  const collectionName = options.collection ?? vault;
  const pattern = options.pattern ?? '**/*.md';
  checkNames(vault, collectionName);
  const match = compileGlob(pattern);
  const root = await resolveContentRoot(options.contentRoot);
  const collection = await store.write((tx) =>
    store.vaultIndex.ensureCollection(tx, {
      ...{ vault, name: collectionName, contentRoot: root, pattern },
      now: now(),
    }),
  );
  const states = await store.read((tx) => store.vaultIndex.syncState(tx, collection.id));
  const walk = await walkVault(root, match, options.limits);
  const report: SyncReport = {
    ...{ vault, collection: collectionName, contentRoot: root, pattern },
    ...{ added: 0, updated: 0, unchanged: 0, reactivated: 0, deactivated: 0, read: 0 },
    ...{ fragments: 0, redacted: 0, skipped: [...walk.skipped], truncated: walk.truncated, ms: 0 },
    declared: { edges: 0, added: 0, removed: 0, unresolved: 0, unresolvedFirst: [] },
  };
  const run = new SyncRun(
    { store, scrubber: options.scrubber, vault, collection, now, report },
    states,
  );
  await run.files(walk.files);
  await run.finish(walk);
  report.ms = Date.now() - started;
  return report;
}
