// The live top k of a ranking, best first: score descending, then document id ascending (so
// equal scores always come out in the same order).

export interface RankedDoc {
  /** The document's id in its corpus (a memory item's rowid, a code chunk's id). */
  rowid: number;
  /** Σ idf × term weight, the BM25 score FTS5's bm25() gives (up to rounding). */
  bm25: number;
}

export class TopK {
  readonly hits: RankedDoc[] = [];
  constructor(readonly k: number) {}

  #before(a: RankedDoc, bm25: number, rowid: number): boolean {
    return a.bm25 > bm25 || (a.bm25 === bm25 && a.rowid < rowid);
  }

  /** Keeps (`rowid`, `bm25`) if it is among the best k so far. */
  offer(rowid: number, bm25: number): void {
    const last = this.hits[this.k - 1];
    if (last !== undefined && this.#before(last, bm25, rowid)) return;
    let i = Math.min(this.hits.length, this.k - 1);
    while (i > 0 && !this.#before(this.hits[i - 1] as RankedDoc, bm25, rowid)) i--;
    this.hits.splice(i, 0, { rowid, bm25 });
    if (this.hits.length > this.k) this.hits.pop();
  }
}
