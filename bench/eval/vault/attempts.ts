// The ladder itself: the defaults before tuning, then fusion, expansion and rerank grids in
// that order, each searched on the tuning half from the current point, and last the product's
// shipped settings. Returns every row; the held-out half never chooses.
import { type Attempt, BEFORE, MIN_GAIN, PRODUCT, type Tuner, type TunePoint } from './tune.js';

const fusionGrid = (p: TunePoint): TunePoint[] =>
  [60, 10, 2].flatMap((k) =>
    [0.25, 0.05, 0].map((vectorWeight) => ({ ...p, fusion: { k, vectorWeight } })),
  );

const expansionGrid = (p: TunePoint): TunePoint[] =>
  [0.5, 0.25].flatMap((weight) =>
    [4, 8].map((terms) => ({ ...p, prf: { ...p.prf, weight, terms } })),
  );

const rerankGrid = (p: TunePoint): TunePoint[] =>
  [0.15, 0.5].flatMap((fused) =>
    [0.15, 0.5].flatMap((bm25) =>
      [0.3, 0.15].map((coverage) => ({ ...p, weights: { ...p.weights, fused, bm25, coverage } })),
    ),
  );

export const describe = (p: TunePoint): string =>
  `k ${p.fusion.k}, vector weight ${p.fusion.vectorWeight}; PRF weight ${p.prf.weight}, ${p.prf.terms} terms; rerank fused ${p.weights.fused}, bm25 ${p.weights.bm25}, coverage ${p.weights.coverage}, proximity ${p.weights.proximity}`;

async function bestOf(
  tuner: Tuner,
  stage: Attempt['stage'],
  grid: readonly TunePoint[],
): Promise<Attempt> {
  let best: { point: TunePoint; mrr: number } | null = null;
  for (const point of grid) {
    const mrr = await tuner.tuneMrr(point);
    if (best === null || mrr > best.mrr) best = { point, mrr };
  }
  if (best === null) throw new Error('empty grid');
  const row = await tuner.measure(stage, `best of grid: ${describe(best.point)}`, best.point);
  return { ...row, grid: grid.length };
}

/** Climbs the ladder; `full` false measures only the before and product rows. */
export async function climb(
  tuner: Tuner,
  full: boolean,
  log: (line: string) => void,
): Promise<{ attempts: Attempt[]; chosen: TunePoint }> {
  const before = await tuner.measure(
    'before',
    `defaults before tuning: ${describe(BEFORE)}`,
    BEFORE,
  );
  const attempts = [before];
  let current = before;
  const stages: [Attempt['stage'], (p: TunePoint) => TunePoint[]][] = full
    ? [
        ['fusion', fusionGrid],
        ['expansion', expansionGrid],
        ['rerank', rerankGrid],
      ]
    : [];
  for (const [stage, grid] of stages) {
    const best = await bestOf(tuner, stage, grid(current.point));
    attempts.push(best);
    const kept = best.tune.mrr - current.tune.mrr >= MIN_GAIN;
    log(
      `${stage}: best tune MRR ${best.tune.mrr} (${describe(best.point)}) ${kept ? 'kept' : 'not kept'}`,
    );
    if (kept) current = best;
  }
  attempts.push(await tuner.measure('product', `shipped: ${describe(PRODUCT)}`, PRODUCT));
  return { attempts, chosen: current.point };
}
