// One store's postings for every corpus: flushes the dirty documents of each inside the store's
// write transactions (and its background drain), and holds the caches searches rank with.
// Memory flushes a bounded number per write (a backlog drains in the background); a corpus
// whose marks are ordered (code, the vault) also indexes every document the transaction itself
// marked, however many, so a committed batch is searchable at once. Any dialect.
import { CODE_CORPUS } from './code-postings.js';
import { GRAPH_CORPUS } from './graph-postings.js';
import { MemoryPostings } from './memory-postings.js';
import { PostingsCache } from './postings-cache.js';
import type { PostingsCorpus } from './postings-corpus.js';
import { flushPostings, lastMark, type TermBatch, TermIds } from './postings.js';
import type { Queryable } from './types.js';
import { VAULT_CORPUS } from './vault-postings.js';

interface Writer {
  terms: TermBatch;
  /** The newest mark when the write transaction began (own-marks corpora). */
  mark: number | undefined;
}

/** The postings work of one write transaction (`PostingsEngine.begin`). */
export class PostingsWrite {
  constructor(readonly writers: readonly Writer[]) {}

  /**
   * Call before the write transaction commits: indexes the documents it marked (own-marks
   * corpora: all of them) and up to `max` older dirty documents per corpus. Returns how many.
   */
  async flush(db: Queryable, max: number): Promise<number> {
    let done = 0;
    for (const w of this.writers) {
      if (w.mark !== undefined) done += await flushPostings(db, w.terms, { after: w.mark });
      done += await flushPostings(db, w.terms, { max });
    }
    return done;
  }

  /** Call once the transaction committed (a rolled-back one is simply dropped). */
  committed(): void {
    for (const w of this.writers) w.terms.committed();
  }
}

export class PostingsEngine {
  readonly memory = new MemoryPostings();
  readonly code = new PostingsCache(CODE_CORPUS);
  readonly vault = new PostingsCache(VAULT_CORPUS);
  readonly graph = new PostingsCache(GRAPH_CORPUS);

  readonly #terms: readonly TermIds[] = [
    this.memory.cache.corpus,
    this.code.corpus,
    this.vault.corpus,
    this.graph.corpus,
  ].map((corpus: PostingsCorpus) => new TermIds(corpus));

  /** Call right after a write transaction began: notes where its own marks will start. */
  async begin(db: Queryable): Promise<PostingsWrite> {
    const writers: Writer[] = [];
    for (const terms of this.#terms) {
      const { corpus } = terms;
      writers.push({
        terms: terms.begin(),
        mark: corpus.ownMarks ? await lastMark(db, corpus) : undefined,
      });
    }
    return new PostingsWrite(writers);
  }

  /** Whether any corpus has documents waiting to be indexed. */
  async hasBacklog(db: Queryable): Promise<boolean> {
    for (const terms of this.#terms)
      if ((await db.get(terms.corpus.sql[db.dialect].anyDirty)) !== undefined) return true;
    return false;
  }
}
