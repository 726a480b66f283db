// Observation memory's service (core.observations): store, get, list, timeline, inject and
// search over memory items of kind `observation`, through memory's search engine and scrubber.
// Other domains (session summaries) store observations through it; the façades call it.
import type { Memory, MemoryScrubber } from '../../memory/index.js';
import type { Store } from '../../store/index.js';
import { createInject } from './inject.js';
import { createRead } from './read.js';
import { createMemorySearch } from './search.js';
import { createWrite } from './write.js';

export interface ObservationsOptions {
  /** Memory's service: its search ranks observations (full text, vectors, fusion). */
  memory: Memory;
  scrubber: MemoryScrubber;
  /** Whether an embedder is configured (queries then use hybrid search). */
  vectors: boolean;
  clock?: (() => number) | undefined;
  /** Called after each committed write, e.g. to wake the embedding worker. */
  onSaved?: (() => void) | undefined;
}

export type Observations = ReturnType<typeof createObservations>;

/** Builds observation memory over a store. */
export function createObservations(store: Store, options: ObservationsOptions) {
  const clock = options.clock ?? Date.now;
  const deps = { store, search: options.memory.search, vectors: options.vectors, clock };
  const read = createRead(deps);
  return {
    store: createWrite(store, { scrubber: options.scrubber, clock, onSaved: options.onSaved }),
    get: read.get,
    list: read.list,
    timeline: read.timeline,
    ofSession: read.ofSession,
    inject: createInject(deps),
    search: createMemorySearch(deps),
  };
}
