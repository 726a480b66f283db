// Migration 31: the model extraction state of vault documents. One row per document says which
// extractor last ran over which content (by hash), whether it succeeded (its facts replaced the
// deterministic ones) or failed (why, how often), and how many model triples were dropped.
import type { Migration } from './migration-types.js';

export const VAULT_EXTRACTION_MIGRATION: Migration = {
  version: 31,
  name: 'vault model extraction state per document',
  sql: `
    CREATE TABLE vault_extractions (
      document_id INTEGER PRIMARY KEY REFERENCES vault_documents(id),
      extractor TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('done','failed')),
      reason TEXT,
      facts INTEGER NOT NULL DEFAULT 0,
      dropped INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 1,
      updated_at INTEGER NOT NULL
    );
  `,
};
