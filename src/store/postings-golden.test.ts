// Memory's ranking did not move when the postings engine became shared by every corpus: a
// fixed corpus and fixed queries give exactly the hits, scores and snippets they gave before
// (the fingerprint was recorded on 0f8edc5, the last commit before src/search existed). The
// postgres test project runs it on PostgreSQL: the same fingerprint, so both rank alike.
import { createHash } from 'node:crypto';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createRng } from '../../test/rng.js';
import { type TempStore, tempStore } from '../../test/store-backends.js';
import type { Store } from './types.js';

/** sha256 of every query's hits as JSON, from the engine before it served several corpora. */
const BEFORE = '6c5f7b85368b46474031b0ef86b6287e8a3e32f730a221f23e6ceec4e10e3655';

const WORDS = (
  'deploy rollback canary kafka postgres redis timeout retry lease backlog shard replica ' +
  'latency throughput migration schema index vacuum checkpoint journal payments billing ' +
  'invoice ledger search vector embedding token budget quota alert pager incident the a of'
).split(' ');

let temp: TempStore;
let store: Store;
beforeEach(async () => {
  temp = await tempStore();
  store = temp.store;
});
afterEach(async () => {
  await temp.close();
});

describe('memory postings, before and after sharing the engine', () => {
  it('rank a fixed corpus exactly as before', async () => {
    const rand = createRng(2024);
    const words = (n: number) =>
      Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    const teams = ['', 'red', 'blue'];
    // Several writes, so impacts are computed at several average lengths; edits and deletes.
    for (let batch = 0; batch < 4; batch++) {
      await store.write(async (tx) => {
        for (let i = 0; i < 150; i++) {
          const n = batch * 150 + i;
          await tx.run(
            `INSERT INTO memory_items (id, kind, team_id, title, content, tags, content_hash, created_at, updated_at)
             VALUES (?, 'fact', ?, ?, ?, ?, ?, 1, 1)`,
            [
              `g${n}`,
              teams[n % 3] ?? '',
              words(3),
              words(5 + (n % 40)),
              `["${words(1)}"]`,
              `h${n}`,
            ],
          );
        }
        await tx.run('UPDATE memory_items SET content = ? WHERE id = ?', [
          words(20),
          `g${batch * 7}`,
        ]);
        await tx.run('UPDATE memory_items SET deleted_at = 1 WHERE id = ?', [`g${batch * 11 + 1}`]);
      });
    }
    const results: unknown[] = [];
    for (let q = 0; q < 60; q++) {
      const team = teams[q % 3] ?? '';
      const partitions = [{ tenant: '', team: '', agent: '' }];
      if (team !== '') partitions.push({ tenant: '', team, agent: '' });
      const hits = await store.memoryIndex.fullText(
        words(1 + (q % 4)),
        {
          sql: `m.deleted_at IS NULL AND m.lifecycle = 'active' AND m.team_id IN ('', ?)`,
          params: [team],
          partitions,
        },
        10,
      );
      results.push(hits.map((h) => [h.rowid, h.bm25, h.score, h.snippet]));
    }
    const digest = createHash('sha256').update(JSON.stringify(results)).digest('hex');
    expect(results.flat().length).toBeGreaterThan(300);
    expect(digest).toBe(BEFORE);
  });
});
