// find_causal_links: breadth-first over the causal edges of active documents from one document,
// both directions sharing one 50-edge budget, each record the physical edge (source → target)
// with its traversal provenance and up to 3 witnesses. Not filtered by the internal-collection
// policy (spec). Records at depth > 1 are per-edge evidence, not a verified chain.
import { z } from 'zod';

import {
  causalStep,
  type CausalStepRow,
  causalWitnesses,
  type CausalWitnessRow,
  type Queryable,
  type Store,
} from '../store/index.js';
import { CAUSAL_WITNESSES_PER_EDGE } from './causal.js';
import { findDocument } from './get.js';
import { int, text } from './tool-schemas.js';

export const CAUSAL_EDGE_BUDGET = 50;
export const CAUSAL_WITNESSES_SHOWN = 3;
export const CAUSAL_DIRECTIONS = ['causes', 'caused_by', 'both'] as const;

export const findCausalLinksInput = z.object({
  docid: text('docid', 4096),
  direction: z
    .enum(CAUSAL_DIRECTIONS, {
      error: () => `direction must be one of ${CAUSAL_DIRECTIONS.join(', ')}`,
    })
    .default('both'),
  depth: int('depth', 1, 10).default(5),
  vault: text('vault', 100).optional(),
});

export type CausalStepDirection = 'causes' | 'caused_by';

export interface CausalWitness {
  /** Null on a legacy witness (synthesized from the edge, no stored fact pair). */
  sourceFactOrdinal: number | null;
  targetFactOrdinal: number | null;
  sourceFact: string | null;
  targetFact: string | null;
  reasoning: string;
  confidence: number;
  strongestAt: string;
  lastSeenAt: string;
  legacy: boolean;
}

export interface CausalLink {
  sourceDocId: string;
  targetDocId: string;
  sourcePath: string;
  targetPath: string;
  origin: string;
  weight: number;
  predecessorDocId: string;
  depth: number;
  direction: CausalStepDirection;
  /** Stored fact-pair witnesses of the edge (0 when only a legacy witness is shown). */
  evidenceCount: number;
  /** True when evidenceCount reached the per-edge storage cap (there may be more pairs). */
  evidenceCapped: boolean;
  witnesses: CausalWitness[];
}

export interface CausalTraversal {
  reference: { docId: string; path: string };
  direction: (typeof CAUSAL_DIRECTIONS)[number];
  depth: number;
  links: CausalLink[];
  /** True when the 50-edge budget left edges out. */
  budgetTruncated: boolean;
  /** True when edges continue past `depth` (the depth limit ended the walk). */
  moreBeyondDepth: boolean;
  /** What the answer holds, or why it is empty. */
  message: string;
}

interface Walk {
  direction: CausalStepDirection;
  forward: boolean;
  frontier: number[];
  visited: Set<number>;
  taken: number[];
}

type Candidate = CausalStepRow & { walk: Walk };

const docId = (docid: string): string => `#${docid}`;

/** The spec's order within one depth: weight DESC, sourceDocId, targetDocId, direction. */
export function byWeightThenIds(
  a: { weight: number; sourceDocId: string; targetDocId: string; direction: string },
  b: { weight: number; sourceDocId: string; targetDocId: string; direction: string },
): number {
  const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  return (
    b.weight - a.weight ||
    cmp(a.sourceDocId, b.sourceDocId) ||
    cmp(a.targetDocId, b.targetDocId) ||
    cmp(a.direction, b.direction)
  );
}

const ids = (c: Candidate) => ({
  weight: c.weight,
  sourceDocId: c.sourceDocid,
  targetDocId: c.targetDocid,
  direction: c.walk.direction,
});

/** One depth's candidate edges over every walk, at most `limit` per walk, in spec order. */
async function step(db: Queryable, walks: readonly Walk[], limit: number): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const walk of walks) {
    const rows = await causalStep(db, {
      ...{ fromIds: walk.frontier, forward: walk.forward },
      ...{ skipEdgeIds: walk.taken, limit },
    });
    out.push(...rows.map((r) => ({ ...r, walk })));
  }
  return out.sort((a, b) => byWeightThenIds(ids(a), ids(b)));
}

interface Picked {
  c: Candidate;
  depth: number;
}

/** Takes one depth's edges; the next frontier of each walk is what it newly reached. */
function advance(taken: readonly Candidate[], picked: Picked[], depth: number): void {
  const next = new Map<Walk, number[]>();
  for (const c of taken) {
    picked.push({ c, depth });
    c.walk.taken.push(c.edgeId);
    if (!next.has(c.walk)) next.set(c.walk, []);
    if (c.walk.visited.has(c.toId)) continue;
    c.walk.visited.add(c.toId);
    next.get(c.walk)?.push(c.toId);
  }
  for (const [walk, frontier] of next) walk.frontier = frontier;
}

interface Walked {
  picked: Picked[];
  budgetTruncated: boolean;
  moreBeyondDepth: boolean;
}

const open = (walks: readonly Walk[]): Walk[] => walks.filter((w) => w.frontier.length > 0);

/** Breadth-first edges from `startId`, with the budget's and the depth limit's flags. */
async function walk(
  db: Queryable,
  startId: number,
  direction: CausalTraversal['direction'],
  maxDepth: number,
): Promise<Walked> {
  const walks: Walk[] = (['causes', 'caused_by'] as const)
    .filter((d) => direction === 'both' || direction === d)
    .map((d) => ({ direction: d, forward: d === 'causes', frontier: [startId] }))
    .map((w) => ({ ...w, visited: new Set([startId]), taken: [] }));
  const picked: Picked[] = [];
  for (let depth = 1; depth <= maxDepth && open(walks).length > 0; depth += 1) {
    const live = open(walks);
    const remaining = CAUSAL_EDGE_BUDGET - picked.length;
    const found = await step(db, live, remaining + 1);
    const taken = found.slice(0, remaining);
    for (const w of live) w.frontier = [];
    advance(taken, picked, depth);
    if (found.length > remaining) return { picked, budgetTruncated: true, moreBeyondDepth: false };
    if (picked.length === CAUSAL_EDGE_BUDGET && depth < maxDepth) {
      const beyond = await step(db, open(walks), 1);
      return { picked, budgetTruncated: beyond.length > 0, moreBeyondDepth: false };
    }
  }
  const beyond = await step(db, open(walks), 1);
  return { picked, budgetTruncated: false, moreBeyondDepth: beyond.length > 0 };
}

const iso = (ms: number): string => new Date(ms).toISOString();

function storedWitness(w: CausalWitnessRow): CausalWitness {
  return {
    ...{ sourceFactOrdinal: w.sourceFact, targetFactOrdinal: w.targetFact },
    ...{ sourceFact: w.sourceText, targetFact: w.targetText },
    ...{ reasoning: w.reasoning, confidence: w.confidence },
    ...{ strongestAt: iso(w.strongestAt), lastSeenAt: iso(w.lastSeenAt), legacy: false },
  };
}

/** The display witness of an edge with no stored pairs, when its metadata makes one. */
export function legacyWitness(e: {
  reasoning: string | null;
  confidence: number | null;
  updatedAt: number;
}): CausalWitness | undefined {
  const { reasoning, confidence } = e;
  if (reasoning === null || reasoning.trim() === '') return undefined;
  if (confidence === null || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)
    return undefined;
  return {
    ...{ sourceFactOrdinal: null, targetFactOrdinal: null, sourceFact: null, targetFact: null },
    ...{ reasoning, confidence, strongestAt: iso(e.updatedAt), lastSeenAt: iso(e.updatedAt) },
    legacy: true,
  };
}

/** The link record of a picked edge with its strongest stored witnesses (or a legacy one). */
function linkOf(
  p: Picked,
  w: { counts: Map<number, number>; rows: CausalWitnessRow[] },
): CausalLink {
  const { c, depth } = p;
  const stored = w.rows.filter((r) => r.edgeId === c.edgeId).map(storedWitness);
  const legacy = stored.length === 0 ? legacyWitness(c) : undefined;
  return {
    ...{ sourceDocId: docId(c.sourceDocid), targetDocId: docId(c.targetDocid) },
    ...{ sourcePath: c.sourcePath, targetPath: c.targetPath, origin: c.origin },
    weight: c.weight,
    predecessorDocId: docId(c.walk.forward ? c.sourceDocid : c.targetDocid),
    ...{ depth, direction: c.walk.direction },
    evidenceCount: w.counts.get(c.edgeId) ?? 0,
    evidenceCapped: (w.counts.get(c.edgeId) ?? 0) >= CAUSAL_WITNESSES_PER_EDGE,
    witnesses: legacy === undefined ? stored : [legacy],
  };
}

/** Says what was found; an empty answer says whether edges exist the other way. */
async function messageOf(
  db: Queryable,
  startId: number,
  direction: CausalTraversal['direction'],
  w: Walked,
): Promise<string> {
  const flags = [
    w.budgetTruncated ? `truncated: the ${CAUSAL_EDGE_BUDGET}-edge budget left edges out` : '',
    w.moreBeyondDepth ? 'more edges continue past the depth limit' : '',
  ].filter((f) => f !== '');
  if (w.picked.length > 0) return [`${w.picked.length} causal link(s)`, ...flags].join('; ');
  if (direction === 'both')
    return 'no causal links: the document has no causal edges with active documents';
  const other: Walk = {
    ...{
      direction: direction === 'causes' ? 'caused_by' : 'causes',
      forward: direction !== 'causes',
    },
    ...{ frontier: [startId], visited: new Set([startId]), taken: [] },
  };
  const there = await step(db, [other], 1);
  return there.length > 0
    ? `no causal links in direction ${direction}; the document has causal edges in direction ${other.direction}`
    : 'no causal links: the document has no causal edges with active documents';
}

/**
 * The causal links of a live document in `vault`, breadth-first up to `depth`, in the spec's
 * order (depth, weight DESC, sourceDocId, targetDocId, direction).
 * @throws VaultDocumentNotFoundError when `docid` names no live document
 */
export async function findCausalLinks(
  store: Store,
  vault: string,
  args: { docid: string; direction: CausalTraversal['direction']; depth: number },
): Promise<CausalTraversal> {
  const ref = await findDocument(store, vault, args.docid);
  return store.read(async (db) => {
    const walked = await walk(db, ref.id, args.direction, args.depth);
    const edgeIds = [...new Set(walked.picked.map((p) => p.c.edgeId))];
    const witnesses = await causalWitnesses(db, edgeIds, CAUSAL_WITNESSES_SHOWN);
    const message = await messageOf(db, ref.id, args.direction, walked);
    return {
      reference: { docId: docId(ref.docid), path: ref.path },
      ...{ direction: args.direction, depth: args.depth },
      links: walked.picked.map((p) => linkOf(p, witnesses)),
      budgetTruncated: walked.budgetTruncated,
      moreBeyondDepth: walked.moreBeyondDepth,
      message,
    };
  });
}
