// The official memory server (@modelcontextprotocol/server-memory, a dev dependency) as a stdio
// child process on a temp MEMORY_FILE_PATH, and our drop-in linked in memory: the two sides the
// comparison tests and the bench replay the same calls against.
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { ROOT } from '../helpers.js';

export const OFFICIAL_BIN = join(
  ROOT,
  'node_modules/@modelcontextprotocol/server-memory/dist/index.js',
);

/** A client of the official server over stdio, its graph in `memoryFile`. */
export async function officialClient(memoryFile: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [OFFICIAL_BIN],
    env: { PATH: process.env['PATH'] ?? '', MEMORY_FILE_PATH: memoryFile },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'cairn-graph-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** One scripted call: a tool and its arguments. */
export type Step = readonly [tool: string, args: Record<string, unknown>];

/** Calls `tool` and keeps what a client sees of the answer (content, structured, isError). */
export async function call(client: Client, [tool, args]: Step): Promise<unknown> {
  const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  return { content: r.content, structuredContent: r.structuredContent, isError: r.isError };
}

const e = (name: string, entityType: string, ...observations: string[]) => ({
  name,
  entityType,
  observations,
});
const r = (from: string, relationType: string, to: string) => ({ from, to, relationType });

/** A session touching every tool: creates, duplicates, observations, deletes, searches, opens. */
export const SESSION: readonly Step[] = [
  ['read_graph', {}],
  ['search_nodes', { query: 'ada' }],
  [
    'create_entities',
    {
      entities: [
        e('Ada Lovelace', 'person', 'wrote the first program', 'Born 1815'),
        e('Charles Babbage', 'person', 'designed the Analytical Engine'),
        e('Analytical Engine', 'machine'),
        e('Ünïcode Straße', 'Place', 'naïve café', 'naïve café'),
      ],
    },
  ],
  ['create_entities', { entities: [e('Ada Lovelace', 'robot', 'ignored'), e('Mary', 'person')] }],
  [
    'create_relations',
    {
      relations: [
        r('Ada Lovelace', 'worked with', 'Charles Babbage'),
        r('Charles Babbage', 'designed', 'Analytical Engine'),
        r('Ada Lovelace', 'visited', 'Nowhere'),
      ],
    },
  ],
  ['create_relations', { relations: [r('Ada Lovelace', 'worked with', 'Charles Babbage')] }],
  [
    'add_observations',
    {
      observations: [
        { entityName: 'Ada Lovelace', contents: ['Born 1815', 'a countess', 'a countess'] },
        { entityName: 'Mary', contents: ['a friend'] },
      ],
    },
  ],
  ['add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] }],
  [
    'add_observations',
    {
      observations: [
        { entityName: 'Mary', contents: ['not kept'] },
        { entityName: 'Nobody', contents: ['x'] },
      ],
    },
  ],
  ['search_nodes', { query: 'PERSON' }],
  ['search_nodes', { query: 'engine' }],
  ['search_nodes', { query: 'é' }],
  ['search_nodes', { query: 'CAFÉ' }],
  ['search_nodes', { query: 'straße' }],
  ['search_nodes', { query: '' }],
  ['search_nodes', { query: 'no such thing' }],
  ['open_nodes', { names: ['Charles Babbage', 'Ada Lovelace', 'Ghost'] }],
  ['open_nodes', { names: ['Nowhere'] }],
  [
    'delete_observations',
    {
      deletions: [
        { entityName: 'Ünïcode Straße', observations: ['naïve café'] },
        { entityName: 'Ghost', observations: ['x'] },
      ],
    },
  ],
  [
    'delete_relations',
    {
      relations: [r('Ada Lovelace', 'visited', 'Nowhere'), r('Ghost', 'haunts', 'Ada Lovelace')],
    },
  ],
  ['delete_entities', { entityNames: ['Charles Babbage', 'Ghost'] }],
  ['read_graph', {}],
  ['create_entities', { entities: [e('Charles Babbage', 'person', 'back again')] }],
  ['create_relations', { relations: [r('Mary', 'knows', 'Charles Babbage')] }],
  ['search_nodes', { query: 'again' }],
  ['read_graph', {}],
];
