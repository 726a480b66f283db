// cairn-graph: a drop-in for the official memory server (@modelcontextprotocol/server-memory).
// Its nine tools with the same titles, descriptions, JSON Schemas (draft-07, as the SDK's
// McpServer lists zod), annotations and answers (pretty-printed JSON text plus
// structuredContent), over the knowledge graph of one named graph per connection ("default"
// unless the connection names another; `vault:` graphs are the vault's and refused).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import type { Core } from '../core/index.js';
import {
  addObservationsInput,
  checkGraphName,
  createEntitiesInput,
  createRelationsInput,
  DEFAULT_GRAPH,
  deletedOutput,
  deleteEntitiesInput,
  deleteObservationsInput,
  deleteRelationsInput,
  entitiesOutput,
  graphOutput,
  type KnowledgeGraph,
  observationsOutput,
  openNodesInput,
  readGraphInput,
  relationsOutput,
  searchNodesInput,
} from '../graph/index.js';
import { createMcpServer } from './server.js';
import { defineTool, type ToolCallContext, type ToolDef } from './tool.js';

export const GRAPH_SERVER_NAME = 'cairn-graph';

export interface GraphServerOptions {
  /** The graph this connection reads and writes (default "default"; `vault:` names refused). */
  graph?: string | undefined;
}

/** The official server's answer: its JSON pretty-printed, and the same as structuredContent. */
const answer = (structured: Record<string, unknown>, shown: unknown): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }],
  structuredContent: structured,
});

/** A delete's fixed acknowledgement. */
const deleted = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  structuredContent: { success: true, message },
});

const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const DELETE: ToolAnnotations = { ...WRITE, destructiveHint: true, idempotentHint: true };
const READ: ToolAnnotations = { ...WRITE, readOnlyHint: true, idempotentHint: true };

interface GraphTool {
  def: ToolDef<z.ZodType, ToolCallContext, CallToolResult>;
  title: string;
  output: z.ZodType;
}

interface Spec<S extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: S;
}

function tool<S extends z.ZodType>(
  { title, ...spec }: Spec<S>,
  output: z.ZodType,
  annotations: ToolAnnotations,
  handler: (args: z.output<S>) => Promise<CallToolResult>,
): GraphTool {
  const def = defineTool<S, ToolCallContext, CallToolResult>({ ...spec, annotations, handler });
  return { title, output, def };
}

/** What a create or add answers: the list under its key. */
const listAnswer = (key: string, list: unknown[]): CallToolResult => answer({ [key]: list }, list);
/** What a read answers: the graph itself. */
const whole = (kg: KnowledgeGraph): CallToolResult => answer({ ...kg }, kg);

function graphTools(core: Core, g: string): GraphTool[] {
  const { graph } = core;
  return [
    tool(
      {
        name: 'create_entities',
        title: 'Create Entities',
        description: 'Create multiple new entities in the knowledge graph',
        input: createEntitiesInput,
      },
      entitiesOutput,
      WRITE,
      async (a) => listAnswer('entities', await graph.createEntities(g, a.entities)),
    ),
    tool(
      {
        name: 'create_relations',
        title: 'Create Relations',
        description:
          'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
        input: createRelationsInput,
      },
      relationsOutput,
      WRITE,
      async (a) => listAnswer('relations', await graph.createRelations(g, a.relations)),
    ),
    tool(
      {
        name: 'add_observations',
        title: 'Add Observations',
        description: 'Add new observations to existing entities in the knowledge graph',
        input: addObservationsInput,
      },
      observationsOutput,
      WRITE,
      async (a) => listAnswer('results', await graph.addObservations(g, a.observations)),
    ),
    tool(
      {
        name: 'delete_entities',
        title: 'Delete Entities',
        description:
          'Delete multiple entities and their associated relations from the knowledge graph',
        input: deleteEntitiesInput,
      },
      deletedOutput,
      DELETE,
      async (a) => {
        await graph.deleteEntities(g, a.entityNames);
        return deleted('Entities deleted successfully');
      },
    ),
    tool(
      {
        name: 'delete_observations',
        title: 'Delete Observations',
        description: 'Delete specific observations from entities in the knowledge graph',
        input: deleteObservationsInput,
      },
      deletedOutput,
      DELETE,
      async (a) => {
        await graph.deleteObservations(g, a.deletions);
        return deleted('Observations deleted successfully');
      },
    ),
    tool(
      {
        name: 'delete_relations',
        title: 'Delete Relations',
        description: 'Delete multiple relations from the knowledge graph',
        input: deleteRelationsInput,
      },
      deletedOutput,
      DELETE,
      async (a) => {
        await graph.deleteRelations(g, a.relations);
        return deleted('Relations deleted successfully');
      },
    ),
    tool(
      {
        name: 'read_graph',
        title: 'Read Graph',
        description: 'Read the entire knowledge graph',
        input: readGraphInput,
      },
      graphOutput,
      READ,
      async () => whole(await graph.readGraph(g)),
    ),
    tool(
      {
        name: 'search_nodes',
        title: 'Search Nodes',
        description: 'Search for nodes in the knowledge graph based on a query',
        input: searchNodesInput,
      },
      graphOutput,
      READ,
      async (a) => whole(await graph.searchNodes(g, a.query)),
    ),
    tool(
      {
        name: 'open_nodes',
        title: 'Open Nodes',
        description: 'Open specific nodes in the knowledge graph by their names',
        input: openNodesInput,
      },
      graphOutput,
      READ,
      async (a) => whole(await graph.openNodes(g, a.names)),
    ),
  ];
}

/** zod → JSON Schema as the SDK's McpServer lists it (draft-07, input or output side). */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] =>
  z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];

/** The tools/list entry the official server gives for the same tool. */
function listed(t: GraphTool): Tool {
  return {
    name: t.def.name,
    title: t.title,
    description: t.def.description,
    inputSchema: jsonSchema(t.def.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output'),
    ...(t.def.annotations === undefined ? {} : { annotations: t.def.annotations }),
    execution: { taskSupport: 'forbidden' },
  };
}

/**
 * Builds one graph server instance for one connection, on its named graph.
 * @throws GraphNameError when `options.graph` is malformed or a reserved `vault:` name
 */
export function createGraphServer(core: Core, options: GraphServerOptions = {}): Server {
  const graph =
    options.graph === undefined ? DEFAULT_GRAPH : checkGraphName(options.graph, 'graph');
  const tools = graphTools(core, graph);
  return createMcpServer<ToolCallContext, CallToolResult>({
    name: GRAPH_SERVER_NAME,
    version: core.version,
    tools: tools.map((t) => t.def),
    listing: tools.map(listed),
    logger: core.logger,
    format: (out) => out,
  });
}
