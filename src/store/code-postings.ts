// Code's corpus for the postings engine: code chunks, partitioned by collection id, fields
// symbol, signature, path (from the chunk's file) and text, tokenized by the code tokenizer.
// Tables from migration 21.
import { codeTokenizer } from '../search/index.js';
import { defineCorpus } from './postings-corpus.js';

/** Field weights: symbol, signature, path, text. Names weigh above bodies. */
export const CODE_FIELD_WEIGHTS = [3, 2, 1, 1] as const;

interface ChunkText {
  id: number;
  collection: number;
  symbol: string;
  signature: string;
  path: string;
  text: string;
}

export const CODE_CORPUS = defineCorpus({
  name: 'code',
  tables: {
    terms: 'code_terms',
    docs: 'code_postings_docs',
    df: 'code_postings_df',
    stats: 'code_postings_stats',
    dirty: 'code_postings_dirty',
  },
  columns: { doc: 'chunk_id', partition: 'collection_id' },
  dirtyOrder: 'seq',
  fieldWeights: CODE_FIELD_WEIGHTS,
  tokenizer: codeTokenizer,
  load(db, ids) {
    const chunks = db.all<ChunkText>(
      `SELECT c.id, c.collection_id AS collection, COALESCE(c.symbol, '') AS symbol,
         COALESCE(c.signature, '') AS signature, f.path, c.text
       FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       WHERE c.id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
      [JSON.stringify(ids)],
    );
    return chunks.map((c) => ({
      id: c.id,
      partition: c.collection,
      fields: [c.symbol, c.signature, c.path, c.text],
    }));
  },
});
