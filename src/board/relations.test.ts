// Unit tests of the board's relation reads: `upstreamIds` names every task that depends on a
// task, directly or through others (the links the dashboard's picker must not offer), and
// every such link is indeed refused as a cycle.
import { describe, expect, it } from 'vitest';

import { openTestBoard } from '../../test/board-fixture.js';

describe('task relations', () => {
  it('lists the transitive dependents as upstreamIds, and linking to one is a cycle', async () => {
    const { board } = await openTestBoard();
    const [a, b, c, d] = await Promise.all(
      ['a', 'b', 'c', 'd'].map((title) => board.createTask({ title })),
    );
    if (a === undefined || b === undefined || c === undefined || d === undefined) throw new Error();
    await board.linkTask(b.id, a.id); // b depends on a
    await board.linkTask(c.id, b.id); // c depends on b
    const upstream = async (id: string) => (await board.getRelations(id)).upstreamIds.sort();
    expect(await upstream(a.id)).toEqual([b.id, c.id].sort());
    expect(await upstream(b.id)).toEqual([c.id]);
    expect(await upstream(c.id)).toEqual([]);
    expect(await upstream(d.id)).toEqual([]);
    for (const id of [b.id, c.id]) {
      await expect(board.linkTask(a.id, id)).rejects.toThrow(/dependency cycle/);
    }
  });
});
