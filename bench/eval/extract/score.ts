// Precision and recall of extracted triples against labelled ones, per predicate and overall.
// Strict: predicate equal and both phrases equal after normalisation (phraseKey). Partial:
// predicate equal and each phrase's words contained in the other's (a boundary off by a word).
import { phraseKey, type Predicate, PREDICATES } from '../../../src/graph/extract/index.js';

export type Triple = readonly [string, string, string];

export interface Counts {
  truePositives: number;
  extracted: number;
  expected: number;
}

export interface Scores extends Counts {
  precision: number;
  recall: number;
}

export type Match = 'strict' | 'partial';

function phraseMatches(a: string, b: string, mode: Match): boolean {
  const ka = phraseKey(a);
  const kb = phraseKey(b);
  if (mode === 'strict' || ka === kb) return ka === kb;
  const wa = new Set(ka.split('-'));
  const wb = kb.split('-');
  const shared = wb.filter((w) => wa.has(w)).length;
  return shared > 0 && (shared === wb.length || shared === wa.size);
}

function tripleMatches(got: Triple, want: Triple, mode: Match): boolean {
  return (
    got[1] === want[1] &&
    phraseMatches(got[0], want[0], mode) &&
    phraseMatches(got[2], want[2], mode)
  );
}

/** True positives of one sentence: each expected triple matched by at most one extracted. */
function countSentence(got: readonly Triple[], want: readonly Triple[], mode: Match): Triple[] {
  const left = [...got];
  const hits: Triple[] = [];
  for (const w of want) {
    const i = left.findIndex((g) => tripleMatches(g, w, mode));
    if (i === -1) continue;
    hits.push(w);
    left.splice(i, 1);
  }
  return hits;
}

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);

function scored(c: Counts): Scores {
  return {
    ...c,
    precision: ratio(c.truePositives, c.extracted),
    recall: ratio(c.truePositives, c.expected),
  };
}

/** Per-predicate and overall scores over every (extracted, expected) sentence pair. */
export function score(
  pairs: readonly { got: readonly Triple[]; want: readonly Triple[] }[],
  mode: Match,
): { overall: Scores; byPredicate: Record<Predicate, Scores> } {
  const blank = (): Counts => ({ truePositives: 0, extracted: 0, expected: 0 });
  const total = blank();
  const per = Object.fromEntries(PREDICATES.map((p) => [p, blank()])) as Record<Predicate, Counts>;
  const bump = (predicate: string, key: keyof Counts): void => {
    total[key] += 1;
    const c = per[predicate as Predicate] as Counts | undefined;
    if (c !== undefined) c[key] += 1;
  };
  for (const { got, want } of pairs) {
    for (const g of got) bump(g[1], 'extracted');
    for (const w of want) bump(w[1], 'expected');
    for (const h of countSentence(got, want, mode)) bump(h[1], 'truePositives');
  }
  const byPredicate = Object.fromEntries(PREDICATES.map((p) => [p, scored(per[p])])) as Record<
    Predicate,
    Scores
  >;
  return { overall: scored(total), byPredicate };
}
