// Migration 23: the code corpus adopts the measured ranking of src/search (fields symbol,
// signature, prose, text, path with CODE_FIELD_WEIGHTS; code-postings.ts), and chunks are
// embedded as codeEmbeddingText. Postings built the old way are taken out (as tombstones, so
// other connections' caches drop them) and every chunk is marked dirty: the store re-indexes
// the backlog in the background from the next open. Old chunk vectors are dropped (their vec0
// rows go through the clean-up trigger) so the embedding backlog embeds every chunk again.
import type { Migration } from './migration-types.js';

export const CODE_RANKING_MIGRATION: Migration = {
  version: 23,
  name: 'code postings and vectors rebuilt for the measured code ranking',
  sql: `
    UPDATE code_postings_docs SET terms = NULL, collection_id = NULL, length = 0,
      seq = (SELECT seq + 1 FROM code_postings_stats WHERE id = 1);
    UPDATE code_terms SET df = 0 WHERE df <> 0;
    DELETE FROM code_postings_df;
    UPDATE code_postings_stats SET docs = 0, total_length = 0, seq = seq + 1, df_seq = seq + 1
      WHERE id = 1;
    DELETE FROM code_postings_dirty;
    INSERT INTO code_postings_dirty(chunk_id) SELECT id FROM code_chunks ORDER BY id;
    DELETE FROM code_vectors;
  `,
};
