// Fixtures for the memory bench: a temp workspace, the bulk fill that takes the database from
// the measured saves to 100k facts, and the synthetic vector fill. The bulk fill writes the
// same rows memory.save writes (FTS triggers index them), many per transaction and without the
// scrubber, because 80k service saves alone would take minutes; it is never measured as saves.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Embedder } from '../../src/embed/index.js';
import { contentHash } from '../../src/memory/index.js';
import type { Store } from '../../src/store/index.js';
import type { Fact } from './corpus.js';

export interface Workspace {
  home: string;
  path(name: string): string;
  cleanup(): void;
}

export function createWorkspace(): Workspace {
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-memory-'));
  return {
    home,
    path: (name) => join(home, name),
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  };
}

const BATCH = 1000;

const COLUMNS =
  'id, kind, tenant_id, team_id, agent_id, title, content, tags, content_hash, created_at, updated_at';

/** Inserts `facts` as live facts, BATCH per transaction. Returns how many were written. */
export async function bulkInsert(
  store: Store,
  facts: readonly Fact[],
  clock: () => number,
): Promise<number> {
  for (let first = 0; first < facts.length; first += BATCH) {
    const batch = facts.slice(first, first + BATCH);
    await store.write(async (tx) => {
      for (const f of batch) {
        const now = clock();
        await tx.run(`INSERT INTO memory_items (${COLUMNS}) VALUES (?,'fact','',?,?,?,?,?,?,?,?)`, [
          randomUUID(),
          f.scope.teamId ?? '',
          f.scope.agentId ?? '',
          f.title,
          f.content,
          JSON.stringify(f.tags ?? []),
          contentHash(f.content),
          now,
          now,
        ]);
      }
    });
  }
  return facts.length;
}

/** Embeds every live item with `embedder` (the synthetic one), BATCH per transaction. */
export async function fillVectors(store: Store, embedder: Embedder): Promise<number> {
  let after = 0;
  let total = 0;
  for (;;) {
    const rows = await store.all<{ rowid: number; title: string; content: string }>(
      'SELECT rowid, title, content FROM memory_items WHERE rowid > ? AND deleted_at IS NULL ORDER BY rowid LIMIT ?',
      [after, BATCH],
    );
    const last = rows.at(-1);
    if (last === undefined) return total;
    const vectors = await embedder.embed(rows.map((r) => `${r.title}\n${r.content}`));
    await store.write((tx) =>
      store.memoryIndex.putVectors(
        tx,
        embedder.model,
        rows.flatMap((r, i) => {
          const vector = vectors[i];
          return vector === undefined ? [] : [{ rowid: r.rowid, vector }];
        }),
      ),
    );
    total += rows.length;
    after = last.rowid;
  }
}

/** Bytes of the database file plus its WAL (0 for a missing file). */
export function dbBytes(path: string): { file: number; wal: number } {
  const size = (p: string): number => {
    try {
      return statSync(p).size;
    } catch {
      return 0;
    }
  };
  return { file: size(path), wal: size(`${path}-wal`) };
}
