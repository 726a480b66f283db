// Which vaults exist: those configured (CAIRN_VAULTS, name → content root), those a sync created
// (their collections are in the store), and always the default vault. Resolving a name refuses
// an unknown one with the list of available names.
import { type Store } from '../store/index.js';
import { VaultInputError, VaultUnknownError } from './errors.js';

export const DEFAULT_VAULT = 'default';

/** A vault name: letters, digits, '_', '-', '.', starting with a letter or digit, ≤ 64. */
export const VAULT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface VaultConfig {
  /** Configured vaults: name → content root (absolute or relative to the working directory). */
  readonly vaults: ReadonlyMap<string, string>;
}

function checkName(name: string, source: string): string {
  if (!VAULT_NAME.test(name))
    throw new VaultInputError(`${source}: bad vault name "${name}"`, source);
  return name;
}

/**
 * Parses CAIRN_VAULTS: a JSON object `{"work": "/notes/work", "home": "~/notes"}`, or
 * `name=path` pairs separated by ':' (`work=/notes/work:home=/notes/home`). Empty → none.
 * @throws VaultInputError naming CAIRN_VAULTS when it is neither.
 */
export function parseVaults(value: string | undefined): Map<string, string> {
  const text = (value ?? '').trim();
  const out = new Map<string, string>();
  if (text === '') return out;
  const source = 'CAIRN_VAULTS';
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new VaultInputError(`${source}: invalid JSON (${(err as Error).message})`, source);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new VaultInputError(`${source}: expected an object of name → path`, source);
    for (const [name, path] of Object.entries(parsed)) {
      if (typeof path !== 'string' || path === '')
        throw new VaultInputError(`${source}: the path of "${name}" must be a string`, source);
      out.set(checkName(name, source), path);
    }
    return out;
  }
  for (const pair of text.split(':')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new VaultInputError(`${source}: expected name=path, got "${pair}"`, source);
    out.set(checkName(pair.slice(0, eq).trim(), source), pair.slice(eq + 1).trim());
  }
  return out;
}

/** The vault configuration of an environment (CAIRN_VAULTS). */
export function vaultConfigFromEnv(env: Readonly<Record<string, string | undefined>>): VaultConfig {
  return { vaults: parseVaults(env.CAIRN_VAULTS) };
}

export interface VaultEntry {
  name: string;
  /** The configured content root, else the root of the vault's first synced collection. */
  contentRoot: string | null;
  configured: boolean;
  /** Collections in the store, by name (the internal one included once it has documents). */
  collections: string[];
}

/** Every vault: configured, synced, and the default one; by name. */
export async function listVaults(store: Store, config: VaultConfig): Promise<VaultEntry[]> {
  const entries = new Map<string, VaultEntry>();
  const entry = (name: string): VaultEntry => {
    let e = entries.get(name);
    if (e === undefined) {
      e = { name, contentRoot: null, configured: false, collections: [] };
      entries.set(name, e);
    }
    return e;
  };
  entry(DEFAULT_VAULT);
  for (const [name, root] of config.vaults)
    Object.assign(entry(name), { contentRoot: root, configured: true });
  for (const c of await store.vaultIndex.collections()) {
    const e = entry(c.vault);
    e.collections.push(c.name);
    if (e.contentRoot === null && c.contentRoot !== '') e.contentRoot = c.contentRoot;
  }
  return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The vault a call addresses: `name`, or the default vault when omitted.
 * @throws VaultUnknownError (listing the available names) when no such vault exists.
 */
export async function resolveVault(
  store: Store,
  config: VaultConfig,
  name?: string,
): Promise<string> {
  if (name === undefined || name === DEFAULT_VAULT) return DEFAULT_VAULT;
  if (config.vaults.has(name)) return name;
  const all = await listVaults(store, config);
  if (all.some((v) => v.name === name)) return name;
  throw new VaultUnknownError(
    name,
    all.map((v) => v.name),
  );
}
