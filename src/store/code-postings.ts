// Code's corpus for the postings engine: code chunks, partitioned by collection id, with the
// measured ranking of src/search (CODE_FIELD_WEIGHTS over symbol, signature, prose, text and
// path; CODE_BM25; the code tokenizer). Tables from migration 21, rebuilt by migration 23 when
// the fields changed. Ranking constants are not defined here: change them in src/search.
import {
  CODE_BM25,
  CODE_FIELD_WEIGHTS,
  type CodeFieldName,
  codeProse,
  codeTokenizer,
} from '../search/index.js';
import { jsonIds } from './json-lists.js';
import { defineCorpus } from './postings-corpus.js';

/** The chunk fields in the order the postings store them (their weights in CODE_FIELD_WEIGHTS). */
export const CODE_FIELDS: readonly CodeFieldName[] = [
  'symbol',
  'signature',
  'prose',
  'text',
  'path',
];

interface ChunkText {
  id: number;
  collection: number;
  symbol: string;
  signature: string;
  path: string;
  language: string | null;
  text: string;
}

/** A chunk's fields in CODE_FIELDS order; `prose` is its docstrings and comments. */
export function codeChunkFields(c: Omit<ChunkText, 'id' | 'collection'>): string[] {
  const values: Record<CodeFieldName, string> = {
    symbol: c.symbol,
    signature: c.signature,
    prose: codeProse(c.text, c.language),
    text: c.text,
    path: c.path,
  };
  return CODE_FIELDS.map((f) => values[f]);
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
  fieldWeights: CODE_FIELDS.map((f) => CODE_FIELD_WEIGHTS[f]),
  bm25: CODE_BM25,
  tokenizer: codeTokenizer,
  async load(db, ids) {
    const chunks = await db.all<ChunkText>(
      `SELECT c.id, c.collection_id AS collection, COALESCE(c.symbol, '') AS symbol,
         COALESCE(c.signature, '') AS signature, f.path, f.language, c.text
       FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       WHERE c.id IN ${jsonIds(db.dialect)} ORDER BY c.id`,
      [JSON.stringify(ids)],
    );
    return chunks.map((c) => ({ id: c.id, partition: c.collection, fields: codeChunkFields(c) }));
  },
});
