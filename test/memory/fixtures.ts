// Memory test fixtures: sessions over a fresh database, a deterministic fake embedder (hashed
// bag of words), the result shapes the tools return, and small SQL probes. Nothing here asserts.
import { createHash } from 'node:crypto';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { Core, CoreOptions } from '../../src/core/index.js';
import type { Embedder } from '../../src/embed/index.js';
import { createMemoryServer, type MemoryBinding } from '../../src/mcp/index.js';
import { callOk, linkedClient, tempCore } from '../helpers.js';

export interface Item {
  id: string;
  kind: 'fact' | 'procedure';
  title: string;
  content: string;
  tags: string[];
  tenantId: string | null;
  teamId: string | null;
  agentId: string | null;
  procedureName?: string;
  version?: number;
  contentHash: string;
  createdAt: string;
  updatedAt: string;
}

export interface Saved {
  saved: 'fact' | 'procedure';
  fact?: Item;
  procedure?: Item;
  deduplicated?: boolean;
}

export interface Hit {
  id: string;
  kind: string;
  title: string;
  snippet: string;
  score: number;
  scoreBasis: 'fts-bm25' | 'vector-cosine' | 'rrf';
  ranks: { fts: number | null; vector: number | null };
  tags: string[];
  teamId: string | null;
  agentId: string | null;
  procedureName?: string;
  version?: number;
  createdAt: string;
}

export interface Found {
  mode: string;
  results: Hit[];
  degraded?: boolean;
  degradedReason?: string;
}

export interface Got {
  item: Item;
  versions?: Item[];
}

/** The saved item (fact or procedure) of a memory_save answer. */
export function itemOf(saved: Saved): Item {
  const item = saved.fact ?? saved.procedure;
  if (item === undefined) throw new Error(`no item in ${JSON.stringify(saved)}`);
  return item;
}

export async function save(client: Client, args: Record<string, unknown>): Promise<Item> {
  return itemOf(await callOk<Saved>(client, 'memory_save', args));
}

export function search(client: Client, args: Record<string, unknown>): Promise<Found> {
  return callOk<Found>(client, 'memory_search', args);
}

export async function browse(client: Client, args: Record<string, unknown> = {}): Promise<Item[]> {
  return (await callOk<{ items: Item[] }>(client, 'memory_browse', args)).items;
}

export const ids = (list: readonly { id: string }[]): string[] => list.map((x) => x.id).sort();

/** The sorted ids memory_browse lists (up to 200), with `args` added. */
export const browseIds = async (
  client: Client,
  args: Record<string, unknown> = {},
): Promise<string[]> => ids(await browse(client, { limit: 200, ...args }));

/** The memory server's tools, sorted by name. */
export const MEMORY_TOOLS: readonly string[] = [
  'memory_browse',
  'memory_get',
  'memory_save',
  'memory_search',
];

/** Rows in memory_items (every kind, every scope, every lifecycle). */
export async function itemCount(core: Core): Promise<number> {
  const row = await core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM memory_items');
  return row?.n ?? 0;
}

/** Which model made each stored vector, by item id. */
export async function vectorModels(core: Core): Promise<Map<string, string>> {
  const rows = await core.store.all<{ id: string; model: string }>(
    'SELECT m.id AS id, v.model AS model FROM memory_vectors v JOIN memory_items m ON m.rowid = v.item_rowid',
  );
  return new Map(rows.map((r) => [r.id, r.model]));
}

export interface HashEmbedder extends Embedder {
  /** Texts embedded so far (queries included). */
  readonly calls: string[][];
}

/**
 * A deterministic embedder: each lower-cased word hashes (with `seed`) to one signed
 * dimension, and the sum is normalised. Texts sharing words are close; others are not. Two
 * seeds with the same `dims` give incompatible spaces that share one vec0 table.
 */
export function hashEmbedder(model = 'test:hash-a', dims = 64, seed = 'a'): HashEmbedder {
  const calls: string[][] = [];
  let closed = false;
  const one = (text: string): Float32Array => {
    const v = new Float32Array(dims);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const h = createHash('sha256').update(`${seed}:${word}`).digest();
      const at = h.readUInt32BE(0) % dims;
      v[at] = (v[at] ?? 0) + ((h[4] ?? 0) & 1 ? 1 : -1);
    }
    let norm = Math.hypot(...v);
    if (norm === 0) {
      v[0] = 1;
      norm = 1;
    }
    return v.map((x) => x / norm);
  };
  return {
    model,
    calls,
    dims: () => dims,
    warm: () => undefined,
    isReady: () => true,
    embed(texts) {
      if (closed) return Promise.reject(new Error('hash embedder closed'));
      calls.push([...texts]);
      return Promise.resolve(texts.map(one));
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}

export interface MemorySession {
  core: Core;
  /** An unbound client. */
  client: Client;
  /** Another client on the same core, through a server with its own binding. */
  connect(binding?: MemoryBinding): Promise<Client>;
  close(): Promise<void>;
}

/**
 * A core over a fresh database file plus an unbound in-memory client. Defaults to no
 * embedder (full-text only) so tests that do not need vectors never load a model.
 */
export async function memorySession(options: CoreOptions = {}): Promise<MemorySession> {
  const t = await tempCore({ embedder: null, ...options });
  const clients: Client[] = [];
  const connect = async (binding: MemoryBinding = {}): Promise<Client> => {
    const client = await linkedClient(createMemoryServer(t.core, binding));
    clients.push(client);
    return client;
  };
  const client = await connect();
  return {
    core: t.core,
    client,
    connect,
    close: async () => {
      for (const c of clients.splice(0)) await c.close().catch(() => undefined);
      await t.close();
    },
  };
}

/** Every read path's view, as sorted id lists. */
export interface Views {
  fts: string[];
  vector: string[];
  hybrid: string[];
  browse: string[];
  get: string[];
}

/**
 * What `client` sees through each read path (search in all three modes, browse, and get of
 * every id in `universe`), with `args` added to every call. Throws if a mode degrades or get
 * refuses with anything but `not found: <id>`.
 */
export async function views(
  client: Client,
  args: Record<string, unknown>,
  universe: readonly { id: string }[],
  query = 'zebra',
): Promise<Views> {
  const run = async (mode: string): Promise<string[]> => {
    const found = await search(client, { query, mode, limit: 100, ...args });
    if (found.degraded === true) throw new Error(`${mode} search degraded`);
    return ids(found.results);
  };
  const got: string[] = [];
  for (const item of universe) {
    const result = await client.callTool({
      name: 'memory_get',
      arguments: { id: item.id, ...args },
    });
    if (result.isError !== true) {
      got.push(item.id);
      continue;
    }
    const text = JSON.stringify(result.content);
    if (text !== JSON.stringify([{ type: 'text', text: `not found: ${item.id}` }])) {
      throw new Error(`memory_get refused with ${text}`);
    }
  }
  return {
    fts: await run('fts'),
    vector: await run('vector'),
    hybrid: await run('hybrid'),
    browse: await browseIds(client, args),
    get: got.sort(),
  };
}

/** The views of a client that sees exactly `list` everywhere. */
export function all(list: readonly string[]): Views {
  const sorted = [...list].sort();
  return { fts: sorted, vector: sorted, hybrid: sorted, browse: sorted, get: sorted };
}
