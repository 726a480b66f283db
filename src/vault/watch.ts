// The opt-in vault watcher of `cairn serve` (CAIRN_VAULT_WATCH): keeps chosen vaults fresh by
// watching each synced collection's content root — fs.watch recursive where the platform has
// it, else polling at a bounded interval — and re-syncing incrementally after a quiet
// debounce. One sync per collection at a time; errors go to onError, never thrown.
import { type FSWatcher, watch } from 'node:fs';

import { VAULT_NAME } from './config.js';
import { VaultConfigError } from './errors.js';
import type { VaultContext } from './service.js';

export const DEFAULT_WATCH_DEBOUNCE_MS = 500;
export const DEFAULT_WATCH_POLL_MS = 5000;
export const MIN_WATCH_POLL_MS = 100;
export const MAX_WATCH_POLL_MS = 3_600_000;

export interface VaultWatchConfig {
  /** Vault names to watch, or every vault with synced collections. */
  readonly vaults: 'all' | readonly string[];
  readonly debounceMs: number;
  /** Poll interval where fs.watch cannot watch recursively (or when `poll` is set). */
  readonly pollMs: number;
  /** Poll even where fs.watch works (network file systems that raise no events). */
  readonly poll: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function ms(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new VaultConfigError(name, `must be a whole number of ms from ${min} to ${max}`);
  return n;
}

/**
 * CAIRN_VAULT_WATCH (`all`, or vault names separated by commas; unset = no watching),
 * CAIRN_VAULT_WATCH_DEBOUNCE_MS (default 500), CAIRN_VAULT_WATCH_POLL_MS (default 5000; setting
 * it forces polling). null when watching is off.
 * @throws VaultConfigError naming the variable with an unusable value.
 */
export function vaultWatchFromEnv(env: Env): VaultWatchConfig | null {
  const raw = env['CAIRN_VAULT_WATCH']?.trim() ?? '';
  if (raw === '' || raw.toLowerCase() === 'none') return null;
  let vaults: 'all' | string[] = 'all';
  if (raw.toLowerCase() !== 'all') {
    vaults = raw
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    const bad = vaults.find((n) => !VAULT_NAME.test(n));
    if (bad !== undefined || vaults.length === 0)
      throw new VaultConfigError(
        'CAIRN_VAULT_WATCH',
        `must be all or vault names separated by commas (bad name ${JSON.stringify(bad ?? raw)})`,
      );
  }
  const pollSet = (env['CAIRN_VAULT_WATCH_POLL_MS']?.trim() ?? '') !== '';
  return {
    vaults,
    debounceMs: ms(env, 'CAIRN_VAULT_WATCH_DEBOUNCE_MS', DEFAULT_WATCH_DEBOUNCE_MS, 0, 60_000),
    pollMs: ms(
      env,
      'CAIRN_VAULT_WATCH_POLL_MS',
      DEFAULT_WATCH_POLL_MS,
      MIN_WATCH_POLL_MS,
      MAX_WATCH_POLL_MS,
    ),
    poll: pollSet,
  };
}

export interface WatchedCollection {
  vault: string;
  collection: string;
  contentRoot: string;
  /** `fs.watch` (recursive events) or `poll` (an incremental sync every pollMs). */
  how: 'fs.watch' | 'poll';
}

export interface VaultWatcher {
  /** What is watched. */
  readonly watched: readonly WatchedCollection[];
  close(): void;
}

export interface VaultWatchHooks {
  onError: (where: { vault: string; collection: string }, err: unknown) => void;
  /** After each re-sync (tests and logs). */
  onSynced?: (where: { vault: string; collection: string; changed: number }) => void;
}

interface Entry {
  busy: boolean;
  again: boolean;
  closed: boolean;
  stop: () => void;
}

interface Collection {
  vault: string;
  collection: string;
  contentRoot: string;
  pattern: string;
}

/** One incremental sync at a time per collection; changes during a sync make one more. */
function resyncer(vault: VaultContext, c: Collection, entry: Entry, hooks: VaultWatchHooks) {
  const where = { vault: c.vault, collection: c.collection };
  return async (): Promise<void> => {
    if (entry.busy) {
      entry.again = true;
      return;
    }
    entry.busy = true;
    try {
      do {
        entry.again = false;
        const r = await vault.sync({
          vault: c.vault,
          contentRoot: c.contentRoot,
          pattern: c.pattern,
          collection: c.collection,
        });
        hooks.onSynced?.({
          ...where,
          changed: r.added + r.updated + r.reactivated + r.deactivated,
        });
      } while (entry.again && !entry.closed);
    } catch (err) {
      hooks.onError(where, err);
    } finally {
      entry.busy = false;
    }
  };
}

/**
 * Starts watching the synced collections (with a content root) of the chosen vaults, and every
 * collection of those vaults synced later (vault_sync while serving).
 */
export async function startVaultWatch(
  vault: VaultContext,
  config: VaultWatchConfig,
  hooks: VaultWatchHooks,
): Promise<VaultWatcher> {
  const entries = new Map<string, Entry>();
  const watched: WatchedCollection[] = [];
  const chosen = (name: string): boolean => config.vaults === 'all' || config.vaults.includes(name);
  let closed = false;
  const add = (c: Collection): void => {
    const key = JSON.stringify([c.vault, c.collection]);
    if (closed || c.contentRoot === '' || !chosen(c.vault) || entries.has(key)) return;
    const entry: Entry = { busy: false, again: false, closed: false, stop: () => undefined };
    const where = { vault: c.vault, collection: c.collection };
    const resync = resyncer(vault, c, entry, hooks);
    const how = follow(
      c.contentRoot,
      config,
      entry,
      () => void resync(),
      (err) => hooks.onError(where, err),
    );
    entries.set(key, entry);
    watched.push({ ...where, contentRoot: c.contentRoot, how });
  };
  const unsubscribe = vault.onSync((r) =>
    add({
      vault: r.vault,
      collection: r.collection,
      contentRoot: r.contentRoot,
      pattern: r.pattern,
    }),
  );
  const names =
    config.vaults === 'all' ? (await vault.listVaults()).vaults.map((v) => v.name) : config.vaults;
  for (const name of names.length === 0 ? ['default'] : names) {
    for (const c of await vault.store.vaultIndex.collections(name))
      add({ vault: name, collection: c.name, contentRoot: c.contentRoot, pattern: c.pattern });
  }
  return {
    watched,
    close() {
      closed = true;
      unsubscribe();
      for (const e of entries.values()) {
        e.closed = true;
        e.stop();
      }
    },
  };
}

/** fs.watch with a debounce, or polling; sets `entry.stop`. Neither keeps the process alive. */
function follow(
  root: string,
  config: VaultWatchConfig,
  entry: Entry,
  fire: () => void,
  onError: (err: unknown) => void,
): 'fs.watch' | 'poll' {
  if (!config.poll) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(root, { recursive: true, persistent: false }, () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(fire, config.debounceMs);
        timer.unref();
      });
    } catch {
      watcher = undefined; // no recursive watching here (or the root is gone): poll
    }
    if (watcher !== undefined) {
      watcher.on('error', onError);
      const w = watcher;
      entry.stop = () => {
        if (timer !== undefined) clearTimeout(timer);
        w.close();
      };
      return 'fs.watch';
    }
  }
  const interval = setInterval(fire, config.pollMs);
  interval.unref();
  entry.stop = () => clearInterval(interval);
  return 'poll';
}
