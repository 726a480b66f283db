// search_nodes and open_nodes: which entities answer, and the relations touching them.
// Substring queries of three code points or more take their candidates from the graph
// corpus's trigram postings and are then checked exactly; shorter queries (and a corpus still
// indexing) read the whole graph, as the official server always does.
import { trigramSearchable, trigramTokenizer } from '../search/index.js';
import type { GraphEntityRow, GraphIndex, GraphTripleRow, Queryable } from '../store/index.js';
import type { Entity, KnowledgeGraph, Relation } from './model.js';

/** Query trigrams used as the filter at most: any subset of them is still a sound filter. */
const MAX_QUERY_TRIGRAMS = 32;

export const toEntity = (r: GraphEntityRow): Entity => ({
  name: r.name,
  entityType: r.entityType,
  observations: r.observations,
});

export const toRelation = (t: GraphTripleRow): Relation => ({
  from: t.subject,
  to: t.object,
  relationType: t.predicate,
});

/** The official server's test: a case-insensitive substring of name, type or an observation. */
export function entityMatches(e: GraphEntityRow, query: string): boolean {
  const q = query.toLowerCase();
  return (
    e.name.toLowerCase().includes(q) ||
    e.entityType.toLowerCase().includes(q) ||
    e.observations.some((o) => o.toLowerCase().includes(q))
  );
}

/** kg_query's full-text test: a case-insensitive substring of the entity's name alone. */
export function entityNameMatches(e: GraphEntityRow, query: string): boolean {
  return e.name.toLowerCase().includes(query.trim().toLowerCase());
}

/** The query's trigram filter, or null when it has none (fewer than TRIGRAM code points). */
export function queryTrigrams(query: string): string[] | null {
  if (!trigramSearchable(query)) return null;
  const terms = trigramTokenizer.queryTerms(query);
  return terms.length >= 1 ? terms.slice(0, MAX_QUERY_TRIGRAMS) : null;
}

/** The entities found and every current relation with an endpoint among them. */
export async function subgraph(
  index: GraphIndex,
  tx: Queryable,
  graphId: number,
  found: readonly GraphEntityRow[],
): Promise<KnowledgeGraph> {
  const names = found.map((e) => e.name);
  const triples = names.length === 0 ? [] : await index.triples(tx, graphId, names);
  return { entities: found.map(toEntity), relations: triples.map(toRelation) };
}
