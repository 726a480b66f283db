// One connection's postings for every corpus: flushes the dirty documents of each inside the
// store's write transactions (and its background drain), and holds the caches searches rank
// with. Memory flushes a bounded number per write (a backlog drains in the background); a
// corpus whose marks are ordered (code, the vault) also indexes every document the transaction itself
// marked, however many, so a committed batch is searchable at once.
import { CODE_CORPUS } from './code-postings.js';
import { GRAPH_CORPUS } from './graph-postings.js';
import { MemoryPostings } from './memory-postings.js';
import type { SyncDb } from './migration-types.js';
import { PostingsCache } from './postings-cache.js';
import type { PostingsCorpus } from './postings-corpus.js';
import { flushPostings, lastMark, TermIds } from './postings.js';
import { VAULT_CORPUS } from './vault-postings.js';

interface Writer {
  terms: TermIds;
  /** The newest mark when the running write transaction began (own-marks corpora). */
  mark: number | undefined;
}

export class PostingsEngine {
  readonly memory = new MemoryPostings();
  readonly code = new PostingsCache(CODE_CORPUS);
  readonly vault = new PostingsCache(VAULT_CORPUS);
  readonly graph = new PostingsCache(GRAPH_CORPUS);

  readonly #writers: Writer[] = [
    this.memory.cache.corpus,
    this.code.corpus,
    this.vault.corpus,
    this.graph.corpus,
  ].map((corpus: PostingsCorpus) => ({ terms: new TermIds(corpus), mark: undefined }));

  /** Call right after a write transaction began: notes where its own marks will start. */
  begin(db: SyncDb): void {
    for (const w of this.#writers)
      w.mark = w.terms.corpus.ownMarks ? lastMark(db, w.terms.corpus) : undefined;
  }

  /**
   * Call before the write transaction commits: indexes the documents it marked (own-marks
   * corpora: all of them) and up to `max` older dirty documents per corpus. Returns how many.
   */
  flush(db: SyncDb, max: number): number {
    let done = 0;
    for (const w of this.#writers) {
      if (w.mark !== undefined) done += flushPostings(db, w.terms, { after: w.mark });
      done += flushPostings(db, w.terms, { max });
    }
    return done;
  }

  committed(): void {
    for (const w of this.#writers) w.terms.committed();
  }

  rolledBack(): void {
    for (const w of this.#writers) w.terms.rolledBack();
  }

  /** Whether any corpus has documents waiting to be indexed. */
  hasBacklog(db: SyncDb): boolean {
    return this.#writers.some((w) => db.get(w.terms.corpus.sql.anyDirty) !== undefined);
  }
}
