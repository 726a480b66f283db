// The baseline: a bare low-level SDK `Server` with one tool, `echo`, that returns its input.
// Built the way Cairn builds its servers (setRequestHandler), minus the domain work.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** A fresh echo server (one per connection or session). */
export function createEchoServer(): Server {
  const server = new Server(
    { name: 'bench-echo', version: '0.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () =>
    Promise.resolve({
      tools: [
        {
          name: 'echo',
          description: 'Returns its arguments.',
          inputSchema: { type: 'object' as const, additionalProperties: true },
        },
      ],
    }),
  );
  server.setRequestHandler(CallToolRequestSchema, (request): Promise<CallToolResult> => {
    const text = JSON.stringify(request.params.arguments ?? {});
    return Promise.resolve({ content: [{ type: 'text', text }] });
  });
  return server;
}
