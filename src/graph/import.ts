// Migration from the official memory server's file (`memory.jsonl`: one JSON object a line,
// type "entity" or "relation", blank lines skipped, other types ignored as its loader does).
// Parsing reports every bad line by number; the import is one store transaction, so a file is
// taken whole or not at all, and a second run of the same file adds nothing.
import { z } from 'zod';

import { describeIssues, InvalidInputError } from '../shared/index.js';
import type { GraphIndex, Queryable, Store } from '../store/index.js';
import { appendNew } from './append.js';
import type { Entity, Relation } from './model.js';
import { entitySchema, relationSchema } from './schemas.js';
import { slugOf } from './slug.js';

export interface MemoryFileLine {
  line: number;
  message: string;
}

export interface ParsedMemoryFile {
  entities: Entity[];
  relations: Relation[];
  /** Lines of another type, skipped as the official server skips them. */
  skipped: number;
  errors: MemoryFileLine[];
}

export interface ImportCount {
  read: number;
  new: number;
  present: number;
}

export interface ImportCounts {
  entities: ImportCount;
  relations: ImportCount;
  observations: ImportCount;
}

const lineSchema = z.discriminatedUnion('type', [
  entitySchema.extend({ type: z.literal('entity') }),
  relationSchema.extend({ type: z.literal('relation') }),
]);

/** Reads one memory file's text: its entities and relations in order, and every bad line. */
export function parseMemoryFile(text: string): ParsedMemoryFile {
  const parsed: ParsedMemoryFile = { entities: [], relations: [], skipped: 0, errors: [] };
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      parsed.errors.push({ line: i + 1, message: `not JSON (${(err as Error).message})` });
      return;
    }
    const type = (json as { type?: unknown } | null)?.type;
    if (type !== 'entity' && type !== 'relation') {
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) parsed.skipped += 1;
      else parsed.errors.push({ line: i + 1, message: 'not a JSON object' });
      return;
    }
    const item = lineSchema.safeParse(json);
    if (!item.success) parsed.errors.push({ line: i + 1, message: describeIssues(item.error) });
    else if (item.data.type === 'entity') {
      const { name, entityType, observations } = item.data;
      parsed.entities.push({ name, entityType, observations });
    } else {
      const { from, to, relationType } = item.data;
      parsed.relations.push({ from, to, relationType });
    }
  });
  return parsed;
}

const count = (): ImportCount => ({ read: 0, new: 0, present: 0 });

/** Adds one entity (or the observations it lacks) and counts what was new. */
async function importEntity(
  tx: Queryable,
  index: GraphIndex,
  at: { graphId: number; now: number },
  e: Entity,
  counts: ImportCounts,
): Promise<void> {
  counts.entities.read += 1;
  counts.observations.read += e.observations.length;
  const input = { name: e.name, entityType: e.entityType, slug: slugOf(e.name) };
  const id = await index.insertEntity(tx, at.graphId, input, at.now);
  if (id !== undefined) {
    counts.entities.new += 1;
    counts.observations.new += e.observations.length;
    await index.addObservations(tx, id, e.observations, at.now);
    return;
  }
  counts.entities.present += 1;
  const existing = (await index.entityIds(tx, at.graphId, [e.name])).get(e.name) ?? 0;
  const added = await appendNew(tx, index, at, existing, e.observations);
  counts.observations.new += added.length;
  counts.observations.present += e.observations.length - added.length;
}

/** Thrown inside the transaction of a dry run so that nothing it did is kept. */
class DryRun extends Error {
  constructor(readonly counts: ImportCounts) {
    super('dry run');
  }
}

/**
 * Imports a parsed memory file into `graph` in one write transaction: entities the graph lacks
 * (an existing one gets the observations it lacks), relations not yet present. With `dryRun`
 * the same transaction runs and is rolled back: the counts say what a real run would add.
 * @throws InvalidInputError when the file has bad lines (nothing is imported).
 */
export async function importMemoryFile(
  store: Store,
  graph: string,
  file: ParsedMemoryFile,
  options: { dryRun?: boolean; clock?: () => number } = {},
): Promise<ImportCounts> {
  const first = file.errors[0];
  if (first !== undefined)
    throw new InvalidInputError(`line ${first.line}: ${first.message}`, 'file');
  const index = store.graphIndex;
  try {
    return await store.write(async (tx) => {
      const counts = { entities: count(), relations: count(), observations: count() };
      const now = (options.clock ?? Date.now)();
      const at = { graphId: await index.ensureGraph(tx, graph, now), now };
      for (const e of file.entities) await importEntity(tx, index, at, e, counts);
      for (const r of file.relations) {
        counts.relations.read += 1;
        const triple = { subject: r.from, predicate: r.relationType, object: r.to };
        if (await index.insertTriple(tx, at.graphId, triple, now)) counts.relations.new += 1;
        else counts.relations.present += 1;
      }
      if (options.dryRun === true) throw new DryRun(counts);
      return counts;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.counts;
    throw err;
  }
}
