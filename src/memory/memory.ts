// The memory service: scrubbed, deduplicated saves of facts and versioned procedures, and
// scoped search (fts / vector / hybrid) and browse. Embedding happens off the request path
// (see embed-worker.ts); a save only wakes the worker.
import { createHash, randomUUID } from 'node:crypto';

import type { FusionOptions } from '../search/index.js';
import { DomainError, InvalidInputError, NotFoundError, stripInvisible } from '../shared/index.js';
import { type Queryable, recentMemoryItems, type Store } from '../store/index.js';
import { createEdits } from './edit.js';
import type { GotItem, MemoryEmbedder, MemoryItem, MemoryScrubber, Scope } from './model.js';
import { type ItemRow, toItem } from './rows.js';
import { scopeColumns, visibleTo } from './scope.js';
import { createSearch } from './search.js';

export interface MemoryOptions {
  scrubber: MemoryScrubber;
  embedder?: MemoryEmbedder | null | undefined;
  clock?: () => number;
  fusion?: FusionOptions;
  /** Called after each committed save, e.g. to wake the embedding worker. */
  onSaved?: () => void;
}

export interface SaveInput {
  content: string;
  title?: string | undefined;
  tags?: readonly string[] | undefined;
  procedureName?: string | undefined;
  scope: Scope;
}

export type SaveResult =
  | { saved: 'fact'; fact: MemoryItem; deduplicated?: true }
  | { saved: 'procedure'; procedure: MemoryItem; deduplicated?: true };

/** Whitespace-normalised SHA-256 of (already scrubbed) content. */
export function contentHash(content: string): string {
  return createHash('sha256').update(content.trim().replace(/\s+/g, ' ')).digest('hex');
}

/** Text that was nothing but invisible characters (stripped before every save). */
const EMPTIED = 'must not be empty once invisible characters are removed';

export type Memory = ReturnType<typeof createMemory>;

/** Builds the memory service over a store. */
export function createMemory(store: Store, options: MemoryOptions) {
  const clock = options.clock ?? Date.now;
  const embedder = options.embedder ?? null;

  async function scrubbed(
    input: SaveInput,
  ): Promise<{ content: string; title: string; tags: string[] }> {
    // Invisible characters go first, so a zero-width space cannot split a secret past the scrubber.
    const clean = async (text: string): Promise<string> =>
      (await options.scrubber.scrub(stripInvisible(text))).text;
    const visible = stripInvisible(input.content);
    if (visible.trim() === '') throw new InvalidInputError(EMPTIED, 'content');
    const content = await options.scrubber.scrub(visible);
    if (content.onlySentinels) {
      throw new DomainError(
        'declined',
        `memory_save declined: the content is nothing but secrets (${content.text.trim().slice(0, 200)}); nothing was saved`,
      );
    }
    const title = input.title === undefined ? '' : await clean(input.title);
    const tags = await Promise.all((input.tags ?? []).map(clean));
    return { content: content.text, title, tags: [...new Set(tags.filter((t) => t !== ''))] };
  }

  async function insert(tx: Queryable, row: Omit<ItemRow, 'rowid'>): Promise<ItemRow> {
    await tx.run(
      `INSERT INTO memory_items (id, kind, tenant_id, team_id, agent_id, vault, parent_id, name, version,
         title, content, tags, content_hash, meta, lifecycle, pinned, created_at, updated_at, deleted_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.kind,
        row.tenant_id,
        row.team_id,
        row.agent_id,
        row.vault,
        row.parent_id,
        row.name,
        row.version,
        row.title,
        row.content,
        row.tags,
        row.content_hash,
        row.meta,
        row.lifecycle,
        row.pinned,
        row.created_at,
        row.updated_at,
        row.deleted_at,
      ],
    );
    const saved = await tx.get<ItemRow>('SELECT * FROM memory_items WHERE id = ?', [row.id]);
    if (saved === undefined) throw new Error('inserted memory item vanished');
    return saved;
  }

  /** A new live item row of the caller's scope, stamped now. */
  function newRow(
    scope: Scope,
    fields: Pick<ItemRow, 'kind' | 'name' | 'version' | 'title' | 'content' | 'content_hash'> & {
      tags: readonly string[];
    },
  ): Omit<ItemRow, 'rowid'> {
    const s = scopeColumns(scope);
    const now = clock();
    return {
      ...fields,
      id: randomUUID(),
      tenant_id: s.tenant,
      team_id: s.team,
      agent_id: s.agent,
      vault: '',
      parent_id: null,
      tags: JSON.stringify(fields.tags),
      meta: '{}',
      lifecycle: 'active',
      pinned: 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
  }

  const SAME_SCOPE = 'tenant_id = ? AND team_id = ? AND agent_id = ? AND deleted_at IS NULL';

  async function saveFact(input: SaveInput): Promise<SaveResult> {
    const { content, title, tags } = await scrubbed(input);
    if (title.trim() === '')
      throw new InvalidInputError(
        'a fact requires a title (or set procedureName to save a procedure)',
        'title',
      );
    const hash = contentHash(content);
    const s = scopeColumns(input.scope);
    return store.write(async (tx) => {
      const existing = await tx.get<ItemRow>(
        `SELECT * FROM memory_items WHERE kind = 'fact' AND content_hash = ? AND ${SAME_SCOPE} LIMIT 1`,
        [hash, s.tenant, s.team, s.agent],
      );
      if (existing !== undefined)
        return { saved: 'fact', fact: toItem(existing), deduplicated: true } as const;
      const row = await insert(
        tx,
        newRow(input.scope, {
          kind: 'fact',
          name: null,
          version: 1,
          title,
          content,
          tags,
          content_hash: hash,
        }),
      );
      return { saved: 'fact', fact: toItem(row) } as const;
    });
  }

  async function saveProcedure(input: SaveInput & { procedureName: string }): Promise<SaveResult> {
    const { content, title, tags } = await scrubbed(input);
    // The name is stored, indexed (as the default title) and returned: scrub it like a title.
    const name = (await options.scrubber.scrub(stripInvisible(input.procedureName))).text;
    if (name.trim() === '') throw new InvalidInputError(EMPTIED, 'procedureName');
    const hash = contentHash(content);
    const s = scopeColumns(input.scope);
    return store.write(async (tx) => {
      const latest = await tx.get<ItemRow>(
        `SELECT * FROM memory_items WHERE kind = 'procedure' AND name = ? AND ${SAME_SCOPE} ORDER BY version DESC LIMIT 1`,
        [name, s.tenant, s.team, s.agent],
      );
      if (latest !== undefined && latest.content_hash === hash) {
        return { saved: 'procedure', procedure: toItem(latest), deduplicated: true } as const;
      }
      const now = clock();
      if (latest !== undefined) {
        await tx.run(
          `UPDATE memory_items SET lifecycle = 'superseded', updated_at = ? WHERE kind = 'procedure' AND name = ? AND ${SAME_SCOPE} AND lifecycle = 'active'`,
          [now, name, s.tenant, s.team, s.agent],
        );
      }
      const row = await insert(
        tx,
        newRow(input.scope, {
          kind: 'procedure',
          name,
          version: (latest?.version ?? 0) + 1,
          title: title === '' ? name : title,
          content,
          tags,
          content_hash: hash,
        }),
      );
      return { saved: 'procedure', procedure: toItem(row) } as const;
    });
  }

  return {
    /**
     * Saves a fact (title + content) or, with `procedureName`, the next version of a procedure.
     * Content is scrubbed of secrets before it is hashed, indexed or embedded.
     * @throws DomainError('declined') when only secrets remain; InvalidInputError for a fact without a title.
     */
    async save(input: SaveInput): Promise<SaveResult> {
      const result =
        input.procedureName === undefined
          ? await saveFact(input)
          : await saveProcedure({ ...input, procedureName: input.procedureName });
      if (result.deduplicated !== true) options.onSaved?.();
      return result;
    },

    search: createSearch(store, embedder, options.fusion),

    ...createEdits(store, { scrubber: options.scrubber, clock }),

    /** Most recent visible facts and current procedures, newest first. */
    async browse(input: { limit?: number | undefined; scope: Scope }): Promise<MemoryItem[]> {
      const filter = visibleTo(input.scope);
      const rows = await recentMemoryItems<ItemRow>(store, filter, input.limit ?? 20);
      return rows.map(toItem);
    },

    /**
     * One item by id with, for procedures, every version (older versions stay readable) and,
     * for an older version, `supersededBy`: the current version's id and number.
     * @throws NotFoundError when missing or outside the caller's scope.
     */
    async get(id: string, scope: Scope): Promise<GotItem> {
      const filter = visibleTo(scope, { superseded: true });
      const row = await store.get<ItemRow>(
        `SELECT * FROM memory_items m WHERE m.id = ? AND ${filter.sql}`,
        [id, ...filter.params],
      );
      if (row === undefined) throw new NotFoundError(`not found: ${id}`);
      if (row.kind !== 'procedure') return { item: toItem(row) };
      const versions = await store.all<ItemRow>(
        'SELECT * FROM memory_items WHERE kind = ? AND name = ? AND tenant_id = ? AND team_id = ? AND agent_id = ? AND deleted_at IS NULL ORDER BY version DESC',
        ['procedure', row.name, row.tenant_id, row.team_id, row.agent_id],
      );
      const current = versions[0];
      const got: GotItem = { item: toItem(row), versions: versions.map(toItem) };
      if (current !== undefined && current.id !== row.id) {
        got.supersededBy = { id: current.id, version: current.version ?? 0 };
      }
      return got;
    },
  };
}
