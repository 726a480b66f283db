// cairn-graph through a real SDK client (in-memory transports): every tool, its answers in the
// official server's format, the refusal for an unknown entity, invalid arguments as a tool
// error naming the field, and writes landing in the knowledge graph's triples.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Core } from '../../src/core/index.js';
import { createGraphServer } from '../../src/mcp/index.js';
import { linkedClient, tempCore } from '../helpers.js';

let core: Core;
let close: () => Promise<void>;
let client: Client;

beforeEach(async () => {
  ({ core, close } = await tempCore());
  client = await linkedClient(createGraphServer(core));
});
afterEach(async () => {
  await client.close();
  await close();
});

const callTool = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult): string => (r.content[0] as { text: string }).text;

const ada = { name: 'Ada', entityType: 'person', observations: ['wrote notes'] };
const knows = { from: 'Ada', to: 'Bob', relationType: 'knows' };

describe('cairn-graph tools', () => {
  it('lists the nine tools of the official server', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'create_entities',
      'create_relations',
      'add_observations',
      'delete_entities',
      'delete_observations',
      'delete_relations',
      'read_graph',
      'search_nodes',
      'open_nodes',
    ]);
  });

  it('creates entities and relations and answers with pretty JSON and structuredContent', async () => {
    const created = await callTool('create_entities', { entities: [ada] });
    expect(text(created)).toBe(JSON.stringify([ada], null, 2));
    expect(created.structuredContent).toEqual({ entities: [ada] });
    const related = await callTool('create_relations', { relations: [knows] });
    expect(related.structuredContent).toEqual({ relations: [knows] });
    expect((await callTool('create_relations', { relations: [knows] })).structuredContent).toEqual({
      relations: [],
    });
    const triple = await core.store.get<{ subject: string; predicate: string; object: string }>(
      'SELECT subject, predicate, object FROM graph_triples',
    );
    expect(triple).toEqual({ subject: 'Ada', predicate: 'knows', object: 'Bob' });
  });

  it('adds observations, and refuses an unknown entity with the official message', async () => {
    await callTool('create_entities', { entities: [ada] });
    const added = await callTool('add_observations', {
      observations: [{ entityName: 'Ada', contents: ['wrote notes', 'met Bob'] }],
    });
    expect(added.structuredContent).toEqual({
      results: [{ entityName: 'Ada', addedObservations: ['met Bob'] }],
    });
    const refused = await callTool('add_observations', {
      observations: [{ entityName: 'Zed', contents: ['x'] }],
    });
    expect(refused).toEqual({
      content: [{ type: 'text', text: 'Entity with name Zed not found' }],
      isError: true,
    });
  });

  it('deletes entities, observations and relations with the fixed acknowledgements', async () => {
    await callTool('create_entities', { entities: [ada] });
    await callTool('create_relations', { relations: [knows] });
    const answers = [
      await callTool('delete_observations', {
        deletions: [{ entityName: 'Ada', observations: ['wrote notes'] }],
      }),
      await callTool('delete_relations', { relations: [knows] }),
      await callTool('delete_entities', { entityNames: ['Ada', 'Nobody'] }),
    ];
    expect(answers.map((a) => a.structuredContent)).toEqual([
      { success: true, message: 'Observations deleted successfully' },
      { success: true, message: 'Relations deleted successfully' },
      { success: true, message: 'Entities deleted successfully' },
    ]);
    expect(text(answers[2] as CallToolResult)).toBe('Entities deleted successfully');
    expect((await callTool('read_graph', {})).structuredContent).toEqual({
      entities: [],
      relations: [],
    });
  });

  it('reads, searches and opens nodes with the relations touching them', async () => {
    await callTool('create_entities', {
      entities: [ada, { name: 'Bob', entityType: 'person', observations: [] }],
    });
    await callTool('create_relations', { relations: [knows] });
    const graph = { entities: [ada], relations: [knows] };
    const searched = await callTool('search_nodes', { query: 'NOTES' });
    expect(searched.structuredContent).toEqual(graph);
    expect(text(searched)).toBe(JSON.stringify(graph, null, 2));
    expect((await callTool('open_nodes', { names: ['Ada'] })).structuredContent).toEqual(graph);
    expect((await callTool('read_graph', {})).structuredContent).toMatchObject({
      relations: [knows],
    });
  });

  it('answers invalid arguments with a tool error naming the field', async () => {
    const r = await callTool('create_entities', { entities: [{ name: 'x' }] });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^invalid args: entities\.0\.entityType: /);
    expect(r._meta).toEqual({ denied: { reason: 'invalid_args' } });
  });
});
