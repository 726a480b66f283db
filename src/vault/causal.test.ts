// The pure parts of the causal links: how a fact states a cause (a chain, an object, a subject;
// never a sibling effect or the same fact restated), the legacy witness's validity, and the
// spec's order within one depth.
import { describe, expect, it } from 'vitest';

import { extractFacts } from '../graph/extract/index.js';
import { byWeightThenIds, legacyWitness } from './causal-links.js';
import { causalMatch } from './causal.js';

const fact = (sentence: string) => {
  const f = extractFacts(sentence)[0];
  if (f === undefined) throw new Error(`no fact in: ${sentence}`);
  return f;
};

describe('causalMatch', () => {
  it('matches a chain, an object and a subject, and nothing else', () => {
    expect(causalMatch(fact('The disk filled up because of log rotation.'), 'disk-filled-up')).toBe(
      'effect',
    );
    expect(causalMatch(fact('Ops adopted log rotation.'), 'log-rotation')).toBe('object');
    expect(causalMatch(fact('Log rotation depends on cron.'), 'log-rotation')).toBe('subject');
    expect(causalMatch(fact('The deploy failed because of log rotation.'), 'log-rotation')).toBe(
      undefined,
    );
    expect(causalMatch(fact('Ops adopted cron.'), 'log-rotation')).toBe(undefined);
  });
});

describe('legacyWitness', () => {
  it('is made only from a non-blank reasoning and a confidence in [0, 1]', () => {
    const at = Date.UTC(2026, 0, 2);
    expect(legacyWitness({ reasoning: 'declared', confidence: 0.8, updatedAt: at })).toEqual({
      ...{ sourceFactOrdinal: null, targetFactOrdinal: null, sourceFact: null, targetFact: null },
      ...{ reasoning: 'declared', confidence: 0.8, legacy: true },
      ...{ strongestAt: '2026-01-02T00:00:00.000Z', lastSeenAt: '2026-01-02T00:00:00.000Z' },
    });
    for (const bad of [
      { reasoning: null, confidence: 0.8 },
      { reasoning: '  ', confidence: 0.8 },
      { reasoning: 'x', confidence: null },
      { reasoning: 'x', confidence: 1.5 },
      { reasoning: 'x', confidence: Number.NaN },
    ])
      expect(legacyWitness({ ...bad, updatedAt: at })).toBeUndefined();
  });
});

describe('byWeightThenIds', () => {
  it('orders by weight DESC, then source, target and direction', () => {
    const e = (weight: number, s: string, t: string, direction: string) => ({
      ...{ weight, sourceDocId: s, targetDocId: t, direction },
    });
    const list = [
      e(0.6, '#a', '#b', 'causes'),
      e(0.9, '#b', '#a', 'causes'),
      e(0.6, '#a', '#b', 'caused_by'),
      e(0.6, '#a', '#a', 'causes'),
    ];
    expect([...list].sort(byWeightThenIds)).toEqual([list[1], list[3], list[2], list[0]]);
  });
});
