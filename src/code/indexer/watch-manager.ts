// The collections this process keeps fresh: one tree watcher each; a burst of changes becomes
// one incremental job (size and mtime first, so only the touched files are read), and changes
// that arrive while it runs become one more job after it. The `watch` flag is stored on the
// collection so `cairn serve` can resume watching after a restart (resume()).
import { InvalidInputError, NotFoundError } from '../../shared/index.js';
import type { Store } from '../../store/index.js';
import { allCollections, type CollectionRow, findCollection } from './collection-rows.js';
import { type TreeWatcher, watchTree } from './watcher.js';

export interface WatchManagerDeps {
  store: Store;
  debounceMs: number;
  onError: (collection: string, err: unknown) => void;
  /** Runs an incremental index of the collection and resolves when it ends. */
  reindex: (row: CollectionRow) => Promise<void>;
}

interface Watched {
  watcher: TreeWatcher;
  busy: boolean;
  again: boolean;
}

export class WatchManager {
  readonly #deps: WatchManagerDeps;
  readonly #watched = new Map<string, Watched>();

  constructor(deps: WatchManagerDeps) {
    this.#deps = deps;
  }

  names(): string[] {
    return [...this.#watched.keys()].sort();
  }

  async #run(name: string, entry: Watched): Promise<void> {
    if (entry.busy) {
      entry.again = true;
      return;
    }
    entry.busy = true;
    try {
      do {
        entry.again = false;
        const row = await findCollection(this.#deps.store, name);
        if (row === undefined || this.#watched.get(name) !== entry) return;
        await this.#deps.reindex(row);
      } while (entry.again && this.#watched.get(name) === entry);
    } catch (err) {
      this.#deps.onError(name, err);
    } finally {
      entry.busy = false;
    }
  }

  /**
   * Watches a work-tree collection and sets its `watch` flag. Throws NotFoundError for an
   * unknown collection, InvalidInputError (field `watch`) for a git-mode one.
   */
  async watch(name: string): Promise<void> {
    const row = await findCollection(this.#deps.store, name);
    if (row === undefined) throw new NotFoundError(`no collection named ${JSON.stringify(name)}`);
    if (row.mode === 'git') {
      throw new InvalidInputError(
        `collection ${name} indexes git refs; only a work tree can be watched`,
        'watch',
      );
    }
    await this.#deps.store.run('UPDATE code_collections SET watch = 1 WHERE id = ?', [row.id]);
    if (this.#watched.has(name)) return;
    const location = this.#deps.store.location;
    const dbFiles = ['', '-wal', '-shm', '-journal'].map((s) => location + s);
    const entry: Watched = { watcher: { close: () => undefined }, busy: false, again: false };
    entry.watcher = watchTree(row.root, {
      debounceMs: this.#deps.debounceMs,
      ignoreFiles: location === ':memory:' ? [] : dbFiles,
      onChange: () => void this.#run(name, entry),
      onError: (err) => this.#deps.onError(name, err),
    });
    this.#watched.set(name, entry);
  }

  /** Stops watching (the flag is the caller's to clear). */
  unwatch(name: string): void {
    this.#watched.get(name)?.watcher.close();
    this.#watched.delete(name);
  }

  /** Watches every collection whose flag is set; returns their names. Failures go to onError. */
  async resume(): Promise<string[]> {
    const rows = (await allCollections(this.#deps.store)).filter((r) => r.watch !== 0);
    for (const row of rows) {
      try {
        await this.watch(row.name);
      } catch (err) {
        this.#deps.onError(row.name, err);
      }
    }
    return this.names();
  }

  closeAll(): void {
    for (const name of [...this.#watched.keys()]) this.unwatch(name);
  }
}
