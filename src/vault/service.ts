// The vault service the cairn-vault tools call: resolves the vault (default, configured or
// synced; unknown → the available list), turns `collection` and `includeInternal` into the
// retrieval filter (an unknown collection is refused with the vault's list), and runs the
// retrieval, access, mutation and lifecycle operations. No MCP here.
import type { Scrubber } from '../memory/index.js';
import type { Store, VaultExtractionTotals, VaultFilter } from '../store/index.js';
import {
  DEFAULT_VAULT,
  listVaults,
  resolveVault,
  type VaultConfig,
  type VaultEntry,
} from './config.js';
import { VaultInputError } from './errors.js';
import type { QueryStages } from './query/index.js';
import { type RetrieveDeps } from './retrieve/search.js';
import type { VaultEmbedder } from './retrieve/vector.js';
import { syncVault, type SyncReport } from './sync.js';

export interface VaultServiceOptions {
  store: Store;
  embedder: VaultEmbedder | null;
  scrubber: Scrubber;
  config: VaultConfig;
  /** The query pipeline's model stages (default PRF expansion and the feature reranker). */
  stages?: QueryStages | undefined;
  now?: () => number;
  /** Woken after a sync wrote fragments (the background fragment embedder). */
  onSynced?: () => void;
  /** The model fact extraction backlog (CAIRN_VAULT_EXTRACTION), for status; else none. */
  extraction?: VaultExtractionState | null | undefined;
}

/** What status reads of the model extraction backlog. */
export interface VaultExtractionState {
  readonly extractor: string;
  totals(vault: string): Promise<VaultExtractionTotals>;
}

/** Everything a vault tool needs, built once per core. */
export interface VaultContext {
  readonly deps: RetrieveDeps & { store: Store };
  readonly store: Store;
  readonly config: VaultConfig;
  readonly scrubber: Scrubber;
  /** The model fact extraction backlog; null when facts come from the deterministic extractor. */
  readonly extraction: VaultExtractionState | null;
  /** The vault a call addresses. @throws VaultUnknownError listing the available names. */
  vault(name: string | undefined): Promise<string>;
  /** The retrieval filter. @throws VaultInputError naming `collection` for an unknown one. */
  filter(
    vault: string,
    opts: { collection?: string | undefined; includeInternal?: boolean },
  ): Promise<VaultFilter>;
  /** list_vaults: configured and synced vaults; empty in single-vault mode. */
  listVaults(): Promise<{ vaults: VaultEntry[]; singleVault: boolean }>;
  sync(args: {
    vault: string;
    contentRoot: string;
    pattern: string;
    collection?: string | undefined;
  }): Promise<SyncReport>;
  /** reindex: every synced collection of the vault again, from its content root. */
  reindex(vault: string): Promise<SyncReport[]>;
  /** Calls `listener` after every sync (vault_sync, reindex, the watcher); returns the undo. */
  onSync(listener: (report: SyncReport) => void): () => void;
}

/** `a, b` → ['a', 'b'] (trimmed, empties dropped). */
export const splitCollections = (value: string): string[] =>
  value
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');

export function createVaultContext(options: VaultServiceOptions): VaultContext {
  const { store, config, scrubber } = options;
  const now = options.now ?? Date.now;
  const deps = {
    store,
    index: store.vaultIndex,
    embedder: options.embedder,
    now,
    ...(options.stages === undefined ? {} : { stages: options.stages }),
  };
  const listeners = new Set<(report: SyncReport) => void>();
  const sync: VaultContext['sync'] = async (a) => {
    const report = await syncVault(store, {
      vault: a.vault,
      contentRoot: a.contentRoot,
      pattern: a.pattern,
      collection: a.collection,
      scrubber,
      now,
    });
    if (report.fragments > 0) options.onSynced?.();
    for (const listener of listeners) listener(report);
    return report;
  };
  return {
    deps,
    store,
    config,
    scrubber,
    extraction: options.extraction ?? null,
    vault: (name) => resolveVault(store, config, name),
    async filter(vault, opts) {
      const base: VaultFilter = {
        vault,
        now: now(),
        includeInternal: opts.includeInternal === true,
      };
      if (opts.collection === undefined) return base;
      const wanted = splitCollections(opts.collection);
      const have = (await store.vaultIndex.collections(vault)).map((c) => c.name);
      const unknown = wanted.filter((c) => !have.includes(c));
      if (unknown.length > 0 || wanted.length === 0) {
        throw new VaultInputError(
          `collection: unknown collection ${unknown.map((c) => `"${c}"`).join(', ') || '(empty)'} in vault ${vault}; available: ${have.join(', ') || '(none)'}`,
          'collection',
        );
      }
      return { ...base, collections: wanted };
    },
    async listVaults() {
      const all = await listVaults(store, config);
      const singleVault = all.every((v) => v.name === DEFAULT_VAULT) && config.vaults.size === 0;
      return { vaults: singleVault ? [] : all, singleVault };
    },
    sync,
    onSync(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async reindex(vault) {
      const collections = (await store.vaultIndex.collections(vault)).filter(
        (c) => c.contentRoot !== '',
      );
      const reports: SyncReport[] = [];
      for (const c of collections) {
        reports.push(
          await sync({ vault, contentRoot: c.contentRoot, pattern: c.pattern, collection: c.name }),
        );
      }
      return reports;
    },
  };
}
