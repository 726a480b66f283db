// The vault's corpus for the postings engine: fragments of active vault documents, partitioned
// by collection id, fields title (the document's), heading path and text, tokenized as prose.
// Fragments of inactive documents leave the index (the document trigger re-marks them).
// Tables from migration 24.
import { proseTokenizer } from '../search/index.js';
import { jsonIds } from './json-lists.js';
import { defineCorpus } from './postings-corpus.js';

/** Field weights: title, heading path, text. A title or heading match outranks body text. */
export const VAULT_FIELD_WEIGHTS = [3, 2, 1] as const;

interface FragmentText {
  id: number;
  collection: number;
  title: string;
  heading: string;
  text: string;
}

export const VAULT_CORPUS = defineCorpus({
  name: 'vault',
  tables: {
    terms: 'vault_terms',
    docs: 'vault_postings_docs',
    df: 'vault_postings_df',
    stats: 'vault_postings_stats',
    dirty: 'vault_postings_dirty',
  },
  columns: { doc: 'fragment_id', partition: 'collection_id' },
  dirtyOrder: 'seq',
  fieldWeights: VAULT_FIELD_WEIGHTS,
  tokenizer: proseTokenizer,
  async load(db, ids) {
    const rows = await db.all<FragmentText>(
      `SELECT f.id, d.collection_id AS collection, d.title, f.heading_path AS heading, f.text
       FROM vault_fragments f JOIN vault_documents d ON d.id = f.document_id
       WHERE f.id IN ${jsonIds(db.dialect)} AND d.active = 1 ORDER BY f.id`,
      [JSON.stringify(ids)],
    );
    return rows.map((r) => ({
      id: r.id,
      partition: r.collection,
      fields: [r.title, r.heading, r.text],
    }));
  },
});
