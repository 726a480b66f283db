// Migration 34: live observations joined memory's BM25 postings (a partition of their own, so
// search_memory finds them where the postings are the only full text: PostgreSQL, and a store
// moved there by migrate-store). Observations written before were skipped when their documents
// were flushed; marking them dirty lets the store's background drain index them at next open.
import type { Migration } from './migration-types.js';

const MARK = `
  INSERT INTO memory_postings_dirty (item_id)
  SELECT rowid FROM memory_items
  WHERE kind = 'observation' AND deleted_at IS NULL AND lifecycle = 'active'
  ON CONFLICT DO NOTHING;
`;

export const OBSERVATION_POSTINGS_MIGRATION: Migration = {
  version: 34,
  name: 'live observations in memory postings',
  sql: MARK,
  pg: MARK,
};
