import { describe, expect, it } from 'vitest';

import {
  type Candidate,
  compositeScore,
  explainRanking,
  ftsTransform,
  halfLifeDays,
  isRecencyQuery,
  PIN_BOOST,
  rawOrder,
  recencyScore,
  scoreAll,
  WEIGHT_PROFILES,
  type Weights,
} from './index.js';

const NOW = Date.UTC(2026, 11, 1);
const DAY = 86_400_000;

const doc = (over: Partial<Candidate> = {}): Candidate => ({
  path: 'notes/a.md',
  searchScore: 0.5,
  contentType: 'note',
  effectiveAt: NOW,
  confidence: null,
  quality: null,
  words: 200,
  accessCount: 0,
  canonical: false,
  superseded: false,
  coActivations: 0,
  pinned: false,
  ...over,
});

describe('recency', () => {
  it('halves at the content type half-life; preferences never decay', () => {
    expect(recencyScore('handoff', NOW - 30 * DAY, NOW)).toBeCloseTo(0.5, 12);
    expect(recencyScore('note', NOW - 120 * DAY, NOW)).toBeCloseTo(0.25, 12);
    expect(recencyScore('decision', NOW - 180 * DAY, NOW)).toBeCloseTo(0.5, 12);
    expect(recencyScore('preference', NOW - 3650 * DAY, NOW)).toBe(1);
    expect(recencyScore('note', NOW + 5 * DAY, NOW)).toBe(1);
    expect(halfLifeDays('something-else')).toBe(60);
  });

  it('detects recency intent by whole words only', () => {
    for (const q of [
      'latest handoff',
      'what did we do yesterday',
      'where we left off',
      'the last session',
      'recently changed config',
    ]) {
      expect(isRecencyQuery(q), q).toBe(true);
    }
    for (const q of [
      'latency of the parser',
      'session cookies',
      'lasting decisions',
      'why sqlite',
    ]) {
      expect(isRecencyQuery(q), q).toBe(false);
    }
  });
});

describe('composite score', () => {
  it('is the weighted blend times the multipliers, and the breakdown reproduces it', () => {
    const d = doc({
      searchScore: 0.8,
      effectiveAt: NOW - 60 * DAY,
      confidence: 0.9,
      quality: 1,
      words: 15,
      accessCount: 50,
      canonical: true,
      coActivations: 5,
    });
    const b = compositeScore(d, WEIGHT_PROFILES.default, NOW);
    // Hand-computed: recency 0.5 (one half-life), confidence 0.7·0.9 + 0.3·0.5 = 0.78.
    expect(b.recency.score).toBeCloseTo(0.5, 12);
    expect(b.confidence.blended).toBeCloseTo(0.78, 12);
    expect(b.blend).toBeCloseTo(0.5 * 0.8 + 0.25 * 0.5 + 0.25 * 0.78, 12);
    const want = { quality: 1.3, length: 0.9, frequency: 1.1, canonical: 1.1, coActivation: 1.075 };
    for (const [k, v] of Object.entries(want)) {
      expect(b.multipliers[k as keyof typeof want], k).toBeCloseTo(v, 12);
    }
    const m = b.multipliers;
    expect(b.compositeScore).toBe(
      b.blend * m.quality * m.length * m.frequency * m.canonical * m.coActivation + b.pinBoost,
    );
    expect(b.pinBoost).toBe(0);
  });

  it('adds the pin boost up to the 1.0 cap, and says so with a signed boost', () => {
    const low = compositeScore(
      doc({ pinned: true, searchScore: 0.2 }),
      WEIGHT_PROFILES.default,
      NOW,
    );
    expect(low.pinBoost).toBeCloseTo(PIN_BOOST, 12);
    expect(low.compositeScore).toBeCloseTo(low.preBoost + 0.3, 12);
    const high = doc({
      pinned: true,
      searchScore: 1,
      quality: 1,
      canonical: true,
      accessCount: 50,
      coActivations: 10,
      confidence: 1,
    });
    const h = compositeScore(high, WEIGHT_PROFILES.default, NOW);
    expect(h.preBoost).toBeGreaterThan(1);
    expect(h.compositeScore).toBeCloseTo(1, 12);
    expect(h.pinBoost).toBeLessThan(0);
  });

  it('the query profile leans on relevance more than the default one', () => {
    const old = doc({ searchScore: 0.9, effectiveAt: NOW - 400 * DAY });
    const fresh = doc({ searchScore: 0.3, path: 'b.md' });
    const by = (w: Weights) =>
      compositeScore(old, w, NOW).compositeScore - compositeScore(fresh, w, NOW).compositeScore;
    expect(by(WEIGHT_PROFILES.query)).toBeGreaterThan(0);
    expect(by(WEIGHT_PROFILES.recency)).toBeLessThan(0);
  });

  it('maps BM25 into [0, 1) monotonically', () => {
    expect(ftsTransform(-3)).toBeCloseTo(0.75, 12);
    expect(ftsTransform(3)).toBeCloseTo(0.75, 12);
    expect(ftsTransform(0)).toBe(0);
    expect(ftsTransform(Number.NaN)).toBe(0);
    expect(ftsTransform(Number.POSITIVE_INFINITY)).toBeLessThan(1);
    expect(ftsTransform(9)).toBeGreaterThan(ftsTransform(8));
  });
});

describe('orderings', () => {
  it('pin wins only exact raw ties on the raw ordering', () => {
    const docs = [
      doc({ path: 'c.md', searchScore: 0.6 }),
      doc({ path: 'b.md', searchScore: 0.6, pinned: true }),
      doc({ path: 'a.md', searchScore: 0.61 }),
      doc({ path: 'd.md', searchScore: 0.6, effectiveAt: NOW - 500 * DAY }),
    ];
    const order = scoreAll(docs, WEIGHT_PROFILES.default, NOW)
      .sort(rawOrder)
      .map((s) => s.doc.path);
    // a beats the pinned b on relevance; among the 0.6 ties: pin, then legacy composite (c is fresher than d).
    expect(order).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
  });

  it('memory_rank keeps a demoted raw winner visible with its true composite rank', () => {
    const docs = [
      doc({
        path: 'old-winner.md',
        searchScore: 0.95,
        effectiveAt: NOW - 2000 * DAY,
        contentType: 'handoff',
        words: 3,
      }),
      ...Array.from({ length: 4 }, (_, i) =>
        doc({ path: `fresh-${i}.md`, searchScore: 0.3 - i * 0.01, pinned: true }),
      ),
    ];
    const scored = scoreAll(docs, WEIGHT_PROFILES.default, NOW);
    const items = explainRanking(scored, 2);
    const winner = items.find((i) => i.scored.doc.path === 'old-winner.md');
    expect(winner).toMatchObject({ rawRank: 1, demotedRawWinner: true });
    expect(winner?.compositeRank).toBe(5);
    expect(winner?.rankShift).toBe(-4);
    // The union: composite top 2 (fresh-0, fresh-1) and raw top 2 (old-winner, fresh-0).
    expect(items.map((i) => i.scored.doc.path)).toEqual([
      'fresh-0.md',
      'fresh-1.md',
      'old-winner.md',
    ]);
    for (const i of items) {
      const b = i.scored.composite;
      const m = b.multipliers;
      expect(b.compositeScore).toBe(
        b.blend * m.quality * m.length * m.frequency * m.canonical * m.coActivation + b.pinBoost,
      );
      expect(i.rankShift).toBe(i.rawRank - i.compositeRank);
    }
  });
});
