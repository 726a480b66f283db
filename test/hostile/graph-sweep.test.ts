// The hostile-input sweep (harness.ts) over cairn-graph: every tool settles as a result without
// a stack (invalid arguments as `invalid args` naming the field, unknown entities as the
// official refusal), the store stays sound and search still agrees with the rows.
import { afterEach, describe, expect, it } from 'vitest';

import { createGraphServer } from '../../src/mcp/index.js';
import { closeOpened, connect, expectHealthy, openCore, sweep } from './harness.js';

afterEach(closeOpened);

describe('hostile-input sweep: graph', () => {
  it('graph: every tool, over a seeded graph', async () => {
    const core = await openCore();
    const client = await connect(createGraphServer(core));
    const seed = { name: 'Seed', entityType: 'seed', observations: ['kept'] };
    await core.graph.createEntities('default', [seed]);
    await core.graph.createRelations('default', [{ from: 'Seed', to: 'Seed', relationType: 'is' }]);
    const names = ['Seed', 'Sweep', 'nope', '', '\u0000', 'é'.repeat(300)];
    const targets = [{ label: 'graph', client }];
    const failures = await sweep(targets, {
      plausible: {
        ...{ name: names, entityName: names, from: names, to: names, entityNames: [names] },
        ...{ names: [names], query: ['see', 'Se', '', '%', '_', 'a\uD800b'] },
        ...{ entityType: ['seed', 'sweep'], relationType: ['is', 'sweeps'] },
        ...{ observations: [['swept'], []], contents: [['swept']] },
      },
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    // The sweep may delete the seed (delete_entities is a tool): what must hold is that the
    // trigram index still agrees with the rows, query by query.
    const all = await core.graph.readGraph('default');
    for (const q of ['see', 'swe', 'kept', 'éé', 'nop']) {
      const want = all.entities.filter((e) =>
        [e.name, e.entityType, ...e.observations].some((t) => t.toLowerCase().includes(q)),
      );
      expect((await core.graph.searchNodes('default', q)).entities, q).toEqual(want);
    }
  }, 120_000);
});
