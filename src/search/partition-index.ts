// One partition's inverted lists in memory (a memory scope, a code collection): the documents
// present when it was loaded sit in one compact block (term → range of slot/impact arrays, ~6
// bytes a posting); documents replayed afterwards go to small growable lists. Dead slots
// (changed or removed documents) are skipped. Pure: the store reads the rows and hands them in.
import { unpackTerms } from './bm25.js';
import { TopK, type RankedDoc } from './top-k.js';

/** A growable (slot, impact) list for documents added after the partition was loaded. */
class List {
  slots = new Int32Array(4);
  impacts = new Uint16Array(4);
  n = 0;

  push(slot: number, impact: number): void {
    if (this.n === this.slots.length) {
      const slots = new Int32Array(this.n * 2);
      slots.set(this.slots);
      const impacts = new Uint16Array(this.n * 2);
      impacts.set(this.impacts);
      [this.slots, this.impacts] = [slots, impacts];
    }
    this.slots[this.n] = slot;
    this.impacts[this.n] = impact;
    this.n += 1;
  }
}

/** Adds w × impact into acc[slot] for each posting, recording first-touched slots. */
function accumulate(
  slots: Int32Array,
  impacts: Uint16Array,
  from: number,
  to: number,
  w: number,
  acc: Float64Array,
  touched: number[],
): void {
  for (let i = from; i < to; i++) {
    const slot = slots[i] as number;
    if (acc[slot] === 0) touched.push(slot);
    acc[slot] = (acc[slot] as number) + w * (impacts[i] as number);
  }
}

export class PartitionIndex {
  readonly items: number[] = [];
  readonly dead: boolean[] = [];
  entries = 0;
  deadCount = 0;
  /** term id → [start, end) in #slots / #impacts (the block built at load). */
  readonly #ranges = new Map<number, number>();
  #bounds = new Int32Array(0);
  #slots = new Int32Array(0);
  #impacts = new Uint16Array(0);
  readonly #extra = new Map<number, List>();

  /** Builds the compact block from the partition's forward-index rows. */
  static load(rows: readonly { item: number; terms: Uint8Array }[]): PartitionIndex {
    const index = new PartitionIndex();
    const docs = rows.map((r) => unpackTerms(r.terms));
    const counts = new Map<number, number>();
    for (const d of docs) for (const id of d.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    index.#bounds = new Int32Array(counts.size * 2);
    let at = 0;
    let k = 0;
    for (const [id, n] of counts) {
      index.#ranges.set(id, k);
      index.#bounds[k * 2] = at;
      index.#bounds[k * 2 + 1] = at; // the fill cursor, ends at start + n
      at += n;
      k += 1;
    }
    index.#slots = new Int32Array(at);
    index.#impacts = new Uint16Array(at);
    docs.forEach((d, slot) => {
      index.items.push(rows[slot]?.item ?? 0);
      index.dead.push(false);
      for (let i = 0; i < d.ids.length; i++) {
        const r = index.#ranges.get(d.ids[i] as number) ?? 0;
        const cursor = index.#bounds[r * 2 + 1] as number;
        index.#slots[cursor] = slot;
        index.#impacts[cursor] = d.impacts[i] as number;
        index.#bounds[r * 2 + 1] = cursor + 1;
      }
    });
    index.entries = at;
    return index;
  }

  /** Appends an item replayed after loading; returns its slot. */
  add(item: number, blob: Uint8Array): number {
    const slot = this.items.length;
    const { ids, impacts } = unpackTerms(blob);
    this.items.push(item);
    this.dead.push(false);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      let list = this.#extra.get(id);
      if (list === undefined) this.#extra.set(id, (list = new List()));
      list.push(slot, impacts[i] as number);
    }
    this.entries += ids.length;
    return slot;
  }

  kill(slot: number): void {
    if (this.dead[slot] !== false) return;
    this.dead[slot] = true;
    this.deadCount += 1;
  }

  /** Adds one into `counts[slot]` for every document holding `term` (one posting each). */
  count(term: number, counts: Uint32Array): void {
    const r = this.#ranges.get(term);
    if (r !== undefined) {
      const end = this.#bounds[r * 2 + 1] as number;
      for (let i = this.#bounds[r * 2] as number; i < end; i++) {
        const slot = this.#slots[i] as number;
        counts[slot] = (counts[slot] as number) + 1;
      }
    }
    const extra = this.#extra.get(term);
    if (extra === undefined) return;
    for (let i = 0; i < extra.n; i++) {
      const slot = extra.slots[i] as number;
      counts[slot] = (counts[slot] as number) + 1;
    }
  }

  /** Adds w × impact of every posting of `term` into `acc` (indexed by slot). */
  score(term: number, w: number, acc: Float64Array, touched: number[]): void {
    const r = this.#ranges.get(term);
    if (r !== undefined) {
      const start = this.#bounds[r * 2] as number;
      const end = this.#bounds[r * 2 + 1] as number;
      accumulate(this.#slots, this.#impacts, start, end, w, acc, touched);
    }
    const extra = this.#extra.get(term);
    if (extra !== undefined) accumulate(extra.slots, extra.impacts, 0, extra.n, w, acc, touched);
  }
}

/** A query term's id and its weight per unit of stored impact (idf / IMPACT_SCALE). */
export interface WeightedTerm {
  id: number;
  w: number;
}

/**
 * The `limit` best live documents of `partitions` for the weighted query terms, best first,
 * and how many live documents matched at least one term (exhaustive: every posting is read).
 */
export function rankPartitions(
  partitions: readonly PartitionIndex[],
  terms: readonly WeightedTerm[],
  limit: number,
): { hits: RankedDoc[]; matched: number } {
  const top = new TopK(limit);
  let matched = 0;
  for (const index of partitions) {
    const acc = new Float64Array(index.items.length);
    const touched: number[] = [];
    for (const { id, w } of terms) index.score(id, w, acc, touched);
    for (const slot of touched) {
      if (index.dead[slot] !== false) continue;
      matched += 1;
      top.offer(index.items[slot] as number, acc[slot] as number);
    }
  }
  return { hits: top.hits, matched };
}

/**
 * The live documents of `partitions` that hold every one of `terms` (distinct term ids): a
 * conjunctive filter for candidates (trigrams of a substring), unranked, in slot order.
 */
export function matchAll(
  partitions: readonly PartitionIndex[],
  terms: readonly number[],
): number[] {
  const out: number[] = [];
  if (terms.length === 0) return out;
  for (const index of partitions) {
    const counts = new Uint32Array(index.items.length);
    for (const id of terms) index.count(id, counts);
    counts.forEach((n, slot) => {
      if (n === terms.length && index.dead[slot] === false) out.push(index.items[slot] as number);
    });
  }
  return out;
}
