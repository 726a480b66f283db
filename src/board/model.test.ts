// The board's state machine as data: every (from, to) pair against a table written out here,
// so a change to the moves in model.ts has to change this file too.
import { describe, expect, it } from 'vitest';

import { canMove, DEFAULT_LIMITS, movesFrom, TASK_STATUSES, type TaskStatus } from './model.js';

/** The legal moves, written independently of model.ts. Same-status is a separate no-op. */
const LEGAL: Record<TaskStatus, TaskStatus[]> = {
  backlog: ['todo', 'blocked', 'cancelled'],
  todo: ['in_progress', 'blocked', 'backlog', 'cancelled'],
  in_progress: ['in_review', 'done', 'blocked', 'todo', 'cancelled'],
  in_review: ['done', 'in_progress', 'blocked', 'cancelled'],
  blocked: ['todo', 'in_progress', 'backlog', 'cancelled'],
  done: [],
  cancelled: [],
};

describe('state machine', () => {
  it('knows exactly the seven spec statuses', () => {
    expect([...TASK_STATUSES].sort()).toEqual(
      ['backlog', 'blocked', 'cancelled', 'done', 'in_progress', 'in_review', 'todo'].sort(),
    );
  });

  for (const from of TASK_STATUSES) {
    it(`allows exactly the listed moves from ${from}`, () => {
      for (const to of TASK_STATUSES) {
        const expected = from === to || LEGAL[from].includes(to);
        expect({ from, to, legal: canMove(from, to) }).toEqual({ from, to, legal: expected });
      }
      expect([...movesFrom(from)].sort()).toEqual([...LEGAL[from]].sort());
    });
  }

  it('makes done and cancelled terminal', () => {
    for (const terminal of ['done', 'cancelled'] as const) {
      expect(movesFrom(terminal)).toEqual([]);
      for (const to of TASK_STATUSES) expect(canMove(terminal, to)).toBe(to === terminal);
    }
  });

  it('can reach done from every non-terminal status', () => {
    const reachable = (from: TaskStatus): boolean => {
      const seen = new Set<TaskStatus>([from]);
      const queue = [from];
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
        for (const next of movesFrom(s)) {
          if (next === 'done') return true;
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      return false;
    };
    for (const from of TASK_STATUSES) {
      if (from !== 'done' && from !== 'cancelled') expect(reachable(from)).toBe(true);
    }
  });
});

describe('default limits', () => {
  it('are the spec numbers', () => {
    expect(DEFAULT_LIMITS).toEqual({
      maxChildren: 24,
      maxDepth: 2,
      rootRateMax: 30,
      rootRateWindowMs: 5 * 60_000,
    });
  });
});
