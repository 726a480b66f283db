// Migration 22: what the indexer needs beyond migration 20. A file indexed from a git ref keeps
// its blob id, so a re-index of a moved ref skips unchanged blobs without reading them (their
// mtime, the commit time, changes with every commit). A job keeps the parameters it ran with and
// its outcome (the failure message, or why nothing matched), so every process can report them.
import type { Migration } from './migration-types.js';

export const CODE_INDEX_JOBS_MIGRATION: Migration = {
  version: 22,
  name: 'code index jobs',
  sql: `
    ALTER TABLE code_files ADD COLUMN object_id TEXT;
    ALTER TABLE code_jobs ADD COLUMN params TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE code_jobs ADD COLUMN outcome TEXT;
  `,
};
