// A tool whose effect is rows in the database (note) commits that effect with its call's audit
// trail, in one transaction: a process killed (or a write failing) before the trail is written
// leaves no unaudited note. Found by `npm run bench -- crash`: the note used to be inserted on
// its own, and SIGKILLs between it and the trail left notes no audit row accounted for.
import { afterEach, describe, expect, it } from 'vitest';

import { failingStore } from '../../test/failing-store.js';
import { tempCore } from '../../test/helpers.js';
import { createBroker } from './broker.js';

describe('note and its audit trail', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('a failure writing the trail leaves no note behind', async () => {
    const t = await tempCore({ embedder: null });
    cleanups.push(t.close);
    const store = failingStore(
      t.core.store,
      (sql, params) => sql.includes('INSERT INTO audit_log') && params[4] === 'compaction',
    );
    const broker = createBroker(store);

    await expect(
      broker.call({ tool: 'note', args: { note: 'remember' }, caller: 'c' }),
    ).rejects.toThrow('simulated crash');
    expect(await t.core.store.all('SELECT id FROM tool_notes')).toEqual([]);
  });

  it('a note that commits has its whole trail', async () => {
    const t = await tempCore({ embedder: null });
    cleanups.push(t.close);
    const broker = createBroker(t.core.store);
    const result = await broker.call({ tool: 'note', args: { note: 'kept' }, caller: 'c' });
    const steps = await t.core.store.all<{ step: string; outcome: string }>(
      'SELECT step, outcome FROM audit_log WHERE call_id = ? ORDER BY id',
      [result.callId],
    );
    expect(steps.map((s) => `${s.step}/${s.outcome}`)).toEqual([
      'availability/pass',
      'circuit/pass',
      'validation/pass',
      'inspection/pass',
      'approval/not_required',
      'execution/ok',
      'compaction/within_budget',
      'result/ok',
    ]);
    expect(await t.core.store.all('SELECT note FROM tool_notes')).toEqual([{ note: 'kept' }]);
  });
});
