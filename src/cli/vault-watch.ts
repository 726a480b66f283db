// `cairn serve`'s vault watcher (CAIRN_VAULT_WATCH, opt-in): starts it over the core's vault
// service, logs what is watched and every re-sync that changed something, and logs failures
// (a missing content root, a restricted path) without stopping the server.
import type { Core } from '../core/index.js';
import { startVaultWatch, type VaultWatchConfig, type VaultWatcher } from '../vault/index.js';

/** Starts watching when `config` is set; resolves to the watcher (null when off or on failure). */
export async function startServeVaultWatch(
  core: Core,
  config: VaultWatchConfig | null,
): Promise<VaultWatcher | null> {
  if (config === null) return null;
  try {
    const watcher = await startVaultWatch(core.vault, config, {
      onError: (where, err) =>
        core.logger.warn({ err, ...where }, 'watched vault could not be re-synced'),
      onSynced: (where) => {
        if (where.changed > 0) core.logger.info(where, 'watched vault re-synced');
      },
    });
    const named = config.vaults === 'all' ? [] : config.vaults;
    const missing = named.filter((n) => !watcher.watched.some((w) => w.vault === n));
    if (missing.length > 0)
      core.logger.warn(
        { vaults: missing },
        'CAIRN_VAULT_WATCH names vaults with no synced collection yet; a vault_sync into them starts their watch',
      );
    if (watcher.watched.length > 0)
      core.logger.info({ watched: watcher.watched }, 'watching vault collections');
    return watcher;
  } catch (err) {
    core.logger.warn({ err }, 'could not start the vault watcher');
    return null;
  }
}
