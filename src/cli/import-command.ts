// `cairn import server-memory <file.jsonl>`: migrates the official memory server's file into a
// knowledge graph of the database a running server uses (one transaction: all or nothing).
// Prints what was read, new and already present; --dry-run rolls the same transaction back.
import { readFileSync } from 'node:fs';

import {
  DEFAULT_GRAPH,
  type ImportCount,
  type ImportCounts,
  importMemoryFile,
  parseMemoryFile,
} from '../graph/index.js';
import { cairnHome, openStore } from '../store/index.js';
import { UsageError } from './args.js';
import { checkedGraph } from './binding-flags.js';
import { configDb } from './database.js';
import { findServer } from './serve-record.js';

export interface ImportFlags {
  'dry-run'?: boolean | undefined;
  graph?: string | undefined;
  json?: boolean | undefined;
  db?: string | undefined;
}

/** Bad lines printed at most (the rest are counted). */
const MAX_SHOWN = 20;

const line = (what: string, c: ImportCount): string =>
  `${what}: ${c.read} read, ${c.new} new, ${c.present} already present\n`;

function report(counts: ImportCounts, file: string, graph: string, dryRun: boolean): string {
  const head = dryRun
    ? `dry run: ${file} into graph "${graph}" (nothing written)\n`
    : `imported ${file} into graph "${graph}"\n`;
  return (
    head +
    line('entities', counts.entities) +
    line('relations', counts.relations) +
    line('observations', counts.observations)
  );
}

/** `cairn import server-memory <file>`. */
export async function importServerMemory(file: string, flags: ImportFlags): Promise<void> {
  if (file === '') throw new UsageError('a file is required: cairn import server-memory <file>');
  const graph = flags.graph === undefined ? DEFAULT_GRAPH : checkedGraph(flags.graph, '--graph');
  const parsed = parseMemoryFile(readFileSync(file, 'utf8'));
  if (parsed.errors.length > 0) {
    for (const e of parsed.errors.slice(0, MAX_SHOWN))
      process.stderr.write(`${file}:${e.line}: ${e.message}\n`);
    const more = parsed.errors.length - MAX_SHOWN;
    if (more > 0) process.stderr.write(`… and ${more} more bad lines\n`);
    throw new Error(`${parsed.errors.length} bad lines in ${file}: nothing imported`);
  }
  const lookup = findServer(cairnHome());
  const db = configDb(flags.db, lookup.state === 'running' ? lookup.record : undefined);
  const store = await openStore({ url: db.url, path: db.dbPath });
  try {
    const dryRun = flags['dry-run'] === true;
    const counts = await importMemoryFile(store, graph, parsed, { dryRun });
    const out =
      flags.json === true
        ? `${JSON.stringify({ file, graph, dryRun, skipped: parsed.skipped, ...counts }, null, 2)}\n`
        : report(counts, file, graph, dryRun);
    process.stdout.write(out);
  } finally {
    await store.close();
  }
}
