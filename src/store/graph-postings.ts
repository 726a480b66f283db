// The knowledge graph's corpus for the postings engine: one document per entity (its name, its
// type and each observation as fields), partitioned by graph id, tokenized into trigrams so a
// case-insensitive substring query finds its candidates without reading every entity.
// Tables from migration 29.
import { trigramTokenizer } from '../search/index.js';
import { jsonIds } from './json-lists.js';
import { defineCorpus } from './postings-corpus.js';

export const GRAPH_CORPUS = defineCorpus({
  name: 'graph',
  tables: {
    terms: 'graph_terms',
    docs: 'graph_postings_docs',
    df: 'graph_postings_df',
    stats: 'graph_postings_stats',
    dirty: 'graph_postings_dirty',
  },
  columns: { doc: 'entity_id', partition: 'graph_id' },
  dirtyOrder: 'seq',
  // Candidates only: ranking is not used, every field counts the same.
  fieldWeights: [1, 1],
  tokenizer: trigramTokenizer,
  async load(db, ids) {
    const list = JSON.stringify(ids);
    const IN = jsonIds(db.dialect);
    const entities = await db.all<{ id: number; graph: number; name: string; type: string }>(
      `SELECT id, graph_id AS graph, name, entity_type AS type FROM graph_entities
       WHERE id IN ${IN} ORDER BY id`,
      [list],
    );
    const observations = new Map<number, string[]>();
    for (const o of await db.all<{ entity: number; content: string }>(
      `SELECT entity_id AS entity, content FROM graph_observations WHERE entity_id IN ${IN}
       ORDER BY entity_id, id`,
      [list],
    )) {
      const list = observations.get(o.entity);
      if (list === undefined) observations.set(o.entity, [o.content]);
      else list.push(o.content);
    }
    return entities.map((e) => ({
      id: e.id,
      partition: e.graph,
      fields: [e.name, e.type, ...(observations.get(e.id) ?? [])],
    }));
  },
});
