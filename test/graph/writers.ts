// Concurrent writers for the graph servers (ours and the official one alike): each client
// creates its own entities and relations, one call at a time, and keeps what the server
// acknowledged (returned as created). `lost` compares those with a final read_graph.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import type { Entity, KnowledgeGraph, Relation } from '../../src/graph/index.js';

export interface Acked {
  entities: string[];
  relations: Relation[];
  /** Calls that answered with an error (not acknowledged, so not counted as lost). */
  errors: number;
  calls: number;
}

const structured = <T>(r: CallToolResult, key: string): T[] =>
  r.isError === true ? [] : ((r.structuredContent?.[key] as T[] | undefined) ?? []);

/**
 * Writer `w` creates `rounds` × (`batch` entities, then a relation from each to the previous
 * one); ends early past `deadline` (epoch ms). Returns what was acknowledged.
 */
export async function runWriter(
  client: Client,
  w: number,
  o: { rounds: number; batch: number; deadline: number },
): Promise<Acked> {
  const acked: Acked = { entities: [], relations: [], errors: 0, calls: 0 };
  for (let round = 0; round < o.rounds && Date.now() < o.deadline; round++) {
    const entities: Entity[] = Array.from({ length: o.batch }, (_, i) => ({
      name: `w${w}-r${round}-e${i}`,
      entityType: `writer${w}`,
      observations: [`token w${w}x${round}x${i} written by writer ${w}`],
    }));
    const created = (await client.callTool({
      name: 'create_entities',
      arguments: { entities },
    })) as CallToolResult;
    acked.calls += 1;
    if (created.isError === true) acked.errors += 1;
    acked.entities.push(...structured<Entity>(created, 'entities').map((e) => e.name));
    const relations = entities.map((e, i) => ({
      from: e.name,
      to: i === 0 ? `w${w}-r${round}-e${o.batch - 1}` : `w${w}-r${round}-e${i - 1}`,
      relationType: 'follows',
    }));
    const related = (await client.callTool({
      name: 'create_relations',
      arguments: { relations },
    })) as CallToolResult;
    acked.calls += 1;
    if (related.isError === true) acked.errors += 1;
    acked.relations.push(...structured<Relation>(related, 'relations'));
  }
  return acked;
}

/** Acknowledged entities and relations the final graph does not hold. */
export function lost(
  acked: readonly Acked[],
  graph: KnowledgeGraph,
): {
  entities: number;
  relations: number;
  acknowledged: number;
} {
  const names = new Set(graph.entities.map((e) => e.name));
  const key = (r: Relation): string => JSON.stringify([r.from, r.to, r.relationType]);
  const relations = new Set(graph.relations.map(key));
  const all = {
    entities: acked.flatMap((a) => a.entities),
    relations: acked.flatMap((a) => a.relations),
  };
  return {
    entities: all.entities.filter((n) => !names.has(n)).length,
    relations: all.relations.filter((r) => !relations.has(key(r))).length,
    acknowledged: all.entities.length + all.relations.length,
  };
}
