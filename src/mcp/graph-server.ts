// cairn-graph: a drop-in for the official memory server (@modelcontextprotocol/server-memory).
// Its nine tools with the same titles, descriptions, JSON Schemas (draft-07, as the SDK's
// McpServer lists zod), annotations and answers (pretty-printed JSON text plus
// structuredContent), over the knowledge graph of one named graph ("default" unless given).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import type { Core } from '../core/index.js';
import {
  addObservationsInput,
  createEntitiesInput,
  createRelationsInput,
  DEFAULT_GRAPH,
  deletedOutput,
  deleteEntitiesInput,
  deleteObservationsInput,
  deleteRelationsInput,
  entitiesOutput,
  graphOutput,
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
  /** The graph this connection reads and writes (default "default"). */
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

function graphTools(core: Core, g: string): GraphTool[] {
  const { graph } = core;
  const tool = <S extends z.ZodType>(
    title: string,
    output: z.ZodType,
    def: ToolDef<S, ToolCallContext, CallToolResult>,
  ): GraphTool => ({ title, output, def: defineTool(def) as GraphTool['def'] });
  return [
    tool('Create Entities', entitiesOutput, {
      name: 'create_entities',
      description: 'Create multiple new entities in the knowledge graph',
      input: createEntitiesInput,
      annotations: WRITE,
      handler: async (a) => {
        const entities = await graph.createEntities(g, a.entities);
        return answer({ entities }, entities);
      },
    }),
    tool('Create Relations', relationsOutput, {
      name: 'create_relations',
      description:
        'Create multiple new relations between entities in the knowledge graph. Relations should be in active voice',
      input: createRelationsInput,
      annotations: WRITE,
      handler: async (a) => {
        const relations = await graph.createRelations(g, a.relations);
        return answer({ relations }, relations);
      },
    }),
    tool('Add Observations', observationsOutput, {
      name: 'add_observations',
      description: 'Add new observations to existing entities in the knowledge graph',
      input: addObservationsInput,
      annotations: WRITE,
      handler: async (a) => {
        const results = await graph.addObservations(g, a.observations);
        return answer({ results }, results);
      },
    }),
    tool('Delete Entities', deletedOutput, {
      name: 'delete_entities',
      description:
        'Delete multiple entities and their associated relations from the knowledge graph',
      input: deleteEntitiesInput,
      annotations: DELETE,
      handler: async (a) => {
        await graph.deleteEntities(g, a.entityNames);
        return deleted('Entities deleted successfully');
      },
    }),
    tool('Delete Observations', deletedOutput, {
      name: 'delete_observations',
      description: 'Delete specific observations from entities in the knowledge graph',
      input: deleteObservationsInput,
      annotations: DELETE,
      handler: async (a) => {
        await graph.deleteObservations(g, a.deletions);
        return deleted('Observations deleted successfully');
      },
    }),
    tool('Delete Relations', deletedOutput, {
      name: 'delete_relations',
      description: 'Delete multiple relations from the knowledge graph',
      input: deleteRelationsInput,
      annotations: DELETE,
      handler: async (a) => {
        await graph.deleteRelations(g, a.relations);
        return deleted('Relations deleted successfully');
      },
    }),
    tool('Read Graph', graphOutput, {
      name: 'read_graph',
      description: 'Read the entire knowledge graph',
      input: readGraphInput,
      annotations: READ,
      handler: async () => {
        const read = await graph.readGraph(g);
        return answer({ ...read }, read);
      },
    }),
    tool('Search Nodes', graphOutput, {
      name: 'search_nodes',
      description: 'Search for nodes in the knowledge graph based on a query',
      input: searchNodesInput,
      annotations: READ,
      handler: async (a) => {
        const found = await graph.searchNodes(g, a.query);
        return answer({ ...found }, found);
      },
    }),
    tool('Open Nodes', graphOutput, {
      name: 'open_nodes',
      description: 'Open specific nodes in the knowledge graph by their names',
      input: openNodesInput,
      annotations: READ,
      handler: async (a) => {
        const opened = await graph.openNodes(g, a.names);
        return answer({ ...opened }, opened);
      },
    }),
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

/** Builds one graph server instance for one connection. */
export function createGraphServer(core: Core, options: GraphServerOptions = {}): Server {
  const tools = graphTools(core, options.graph ?? DEFAULT_GRAPH);
  return createMcpServer<ToolCallContext, CallToolResult>({
    name: GRAPH_SERVER_NAME,
    version: core.version,
    tools: tools.map((t) => t.def),
    listing: tools.map(listed),
    logger: core.logger,
    format: (out) => out,
  });
}
