// The causal pipeline's graph step: one hop along causal edges each way from ranked anchors
// (backward to causes, forward to effects), at most HOP_PER_ANCHOR new documents per anchor and
// HOP_TOTAL in all. Eligibility (the caller's filter and collection policy) is applied inside
// the store's query, so an ineligible neighbour never takes a slot. Never widens the filter.
import { eligibleCausalStep, type Store, type VaultFilter } from '../../store/index.js';

export const HOP_PER_ANCHOR = 3;
export const HOP_TOTAL = 10;
/** A hop result scores its anchor's ranking score × the edge weight × HOP_DECAY (below its anchor). */
export const HOP_DECAY = 0.8;

export type CausalDirection = 'cause' | 'effect';

/** Why a result is in the list: `anchorDocid`'s cause or effect. */
export interface CausalMark {
  anchorDocid: string;
  direction: CausalDirection;
}

export interface HopAnchor {
  id: number;
  docid: string;
  rank: number;
}

export interface HopResult {
  /** Hop documents (not anchors), the best hop score first. */
  reached: Map<number, { score: number; marks: CausalMark[] }>;
  /** Anchors that are causes or effects of other anchors. */
  anchorMarks: Map<number, CausalMark[]>;
  /** Eligible new neighbours left out by the total cap. */
  cut: number;
  report: string;
}

interface Step {
  fromId: number;
  id: number;
  weight: number;
  direction: CausalDirection;
}

async function steps(store: Store, anchors: readonly HopAnchor[], filter: VaultFilter) {
  const fromIds = anchors.map((a) => a.id);
  // Anchors among the neighbours are marked, not counted: ask for enough to skip them all.
  const perAnchor = HOP_PER_ANCHOR + fromIds.length - 1;
  const causes = await eligibleCausalStep(store, { fromIds, forward: false, filter, perAnchor });
  const effects = await eligibleCausalStep(store, { fromIds, forward: true, filter, perAnchor });
  const all: Step[] = [
    ...causes.map((n) => ({ ...n, direction: 'cause' as const })),
    ...effects.map((n) => ({ ...n, direction: 'effect' as const })),
  ];
  return all.sort(
    (a, b) =>
      b.weight - a.weight ||
      (a.direction === b.direction ? 0 : a.direction === 'cause' ? -1 : 1) ||
      a.id - b.id,
  );
}

function addMark(marks: CausalMark[], mark: CausalMark): CausalMark[] {
  if (!marks.some((m) => m.anchorDocid === mark.anchorDocid && m.direction === mark.direction))
    marks.push(mark);
  return marks;
}

/** One hop each way from `anchors` (best first) over documents `filter` admits. */
export async function causalHop(
  store: Store,
  anchors: readonly HopAnchor[],
  filter: VaultFilter,
): Promise<HopResult> {
  const anchorIds = new Set(anchors.map((a) => a.id));
  const all = await steps(store, anchors, filter);
  const reached = new Map<number, { score: number; marks: CausalMark[] }>();
  const anchorMarks = new Map<number, CausalMark[]>();
  const cut = new Set<number>();
  for (const a of anchors) {
    let taken = 0;
    for (const s of all.filter((x) => x.fromId === a.id)) {
      const mark = { anchorDocid: a.docid, direction: s.direction };
      if (anchorIds.has(s.id)) {
        anchorMarks.set(s.id, addMark(anchorMarks.get(s.id) ?? [], mark));
        continue;
      }
      if (taken === HOP_PER_ANCHOR) continue;
      taken += 1;
      const seen = reached.get(s.id);
      if (seen === undefined && reached.size >= HOP_TOTAL) {
        cut.add(s.id);
        continue;
      }
      const score = Math.max(seen?.score ?? 0, a.rank * s.weight * HOP_DECAY);
      reached.set(s.id, { score, marks: addMark(seen?.marks ?? [], mark) });
    }
  }
  const report = hopReport(anchors.length, reached, anchorMarks, cut.size);
  return { reached, anchorMarks, cut: cut.size, report };
}

function hopReport(
  anchors: number,
  reached: HopResult['reached'],
  anchorMarks: HopResult['anchorMarks'],
  cut: number,
): string {
  if (anchors === 0) return 'ran: no anchors (nothing matched), so nothing to follow';
  if (reached.size === 0 && anchorMarks.size === 0)
    return `ran: no eligible causal edges from the ${anchors} anchor(s)`;
  const first = [...reached.values()].map((r) => r.marks[0]?.direction);
  const causes = first.filter((d) => d === 'cause').length;
  const effects = first.length - causes;
  const linked =
    anchorMarks.size === 0 ? '' : `; ${anchorMarks.size} anchor(s) linked to other anchors`;
  const capped = cut === 0 ? '' : `; ${cut} more left out by the ${HOP_TOTAL}-result cap`;
  return `ran: ${anchors} anchor(s), ${reached.size} hop result(s) (${causes} cause(s), ${effects} effect(s))${linked}${capped}`;
}
