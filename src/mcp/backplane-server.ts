// The backplane MCP server (`cairn-backplane`): get_status, list_channels, register_agent,
// send_message and get_history with the spec's text outputs. The acting principal comes from
// the transport (bearer token over HTTP; the local user, or --agent-token, over stdio) and is
// the `from` of every message; no argument can change it.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

import {
  getHistoryInput,
  getStatusInput,
  listChannelsInput,
  type Principal,
  registerAgentInput,
  sendMessageInput,
} from '../backplane/index.js';
import type { Core } from '../core/index.js';
import {
  channelsText,
  historyText,
  registeredText,
  sentText,
  statusText,
} from './backplane-format.js';
import { invalidArgs, mapError, RpcError } from './errors.js';
import { toInputSchema } from './json-schema.js';

export const BACKPLANE_SERVER_NAME = 'cairn-backplane';
/** JSON-RPC code for a missing or wrong credential (the spec's table). */
export const UNAUTHORIZED_CODE = -32001;

/** Who the session acts as. Omit both for the operator (stdio: the local user). */
export interface BackplaneBinding {
  /** Already authenticated by the transport (HTTP). */
  principal?: Principal | undefined;
  /** stdio `--agent-token` / CAIRN_AGENT_TOKEN: act as that agent (checked on first call). */
  agentToken?: string | undefined;
}

interface TextResult {
  text: string;
  structured?: Record<string, unknown>;
}

interface TextTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  run(args: z.output<S>, as: Principal): Promise<TextResult>;
}

const tool = <S extends z.ZodType>(t: TextTool<S>): TextTool => t as unknown as TextTool;

function tools(core: Core): TextTool[] {
  const bp = core.backplane;
  return [
    tool({
      name: 'get_status',
      description:
        'Returns daemon health and agent count (active = seen in the last 5 min or connected over IRC).',
      input: getStatusInput,
      run: async () => {
        const counts = await bp.status();
        return { text: statusText(counts), structured: { status: 'ok', ...counts } };
      },
    }),
    tool({
      name: 'list_channels',
      description: 'Lists channels with member count and topic (archived channels are left out).',
      input: listChannelsInput,
      run: async () => ({ text: channelsText(await bp.channels.list()) }),
    }),
    tool({
      name: 'register_agent',
      description:
        'Register a new agent (nick unique; type worker (default), orchestrator or observer; channels to join) and receive its credentials: the IRC password and a bearer token for MCP/REST. The password and token are returned once. Store them before calling another tool. Only the operator or an orchestrator may register.',
      input: registerAgentInput,
      run: async (a, as) => ({ text: registeredText(await bp.register(as, a)) }),
    }),
    tool({
      name: 'send_message',
      description:
        'Send a typed JSON envelope to a channel (e.g. #general). `type` is a dotted name (task.create, task.update, task.complete, agent.hello, agent.bye, text, or your own); `payload` is a JSON object (at most 64 KiB; `text` needs payload.text); `to` optionally names nicks or groups (@all, @workers, @orchestrators, @observers, @prefix-*). The sender is always you.',
      input: sendMessageInput,
      run: async (a, as) => {
        const m = await bp.send(as, a);
        return {
          text: sentText(m),
          structured: { channel: m.channel, seq: m.seq, id: m.envelope.id },
        };
      },
    }),
    tool({
      name: 'get_history',
      description:
        'Retrieve recent messages from a channel (default 20, at most 500), oldest first. The full envelopes (with payloads) are in structuredContent.messages.',
      input: getHistoryInput,
      run: async (a) => {
        const messages = await bp.history(a);
        const channel = messages[0]?.channel ?? (await bp.channels.get(a.channel ?? '')).name;
        return {
          text: historyText(channel, messages),
          structured: { channel, messages: messages.map((m) => ({ seq: m.seq, ...m.envelope })) },
        };
      },
    }),
  ];
}

function resolver(core: Core, binding: BackplaneBinding): () => Promise<Principal> {
  if (binding.principal !== undefined) {
    const p = binding.principal;
    return () => Promise.resolve(p);
  }
  const token = binding.agentToken;
  if (token === undefined || token === '') return () => Promise.resolve({ kind: 'operator' });
  let cached: Promise<Principal | undefined> | undefined;
  return async () => {
    cached ??= core.backplane.agents.authenticateToken(token);
    const p = await cached;
    if (p === undefined) {
      cached = undefined;
      throw new RpcError(UNAUTHORIZED_CODE, 'Unauthorized');
    }
    return p;
  };
}

/** Builds one backplane server instance for one connection. */
export function createBackplaneServer(core: Core, binding: BackplaneBinding = {}): Server {
  const server = new Server(
    { name: BACKPLANE_SERVER_NAME, version: core.version },
    { capabilities: { tools: {}, logging: {} } },
  );
  const all = tools(core);
  const byName = new Map(all.map((t) => [t.name, t]));
  const listed: Tool[] = all.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: toInputSchema(t.input),
  }));
  const principal = resolver(core, binding);
  server.setRequestHandler(ListToolsRequestSchema, () => Promise.resolve({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const t = byName.get(request.params.name);
    if (t === undefined)
      throw new RpcError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`);
    const parsed = t.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) throw invalidArgs(parsed.error);
    const as = await principal();
    try {
      const out = await t.run(parsed.data, as);
      const result: CallToolResult = { content: [{ type: 'text', text: out.text }] };
      if (out.structured !== undefined) result.structuredContent = out.structured;
      return result;
    } catch (err) {
      return mapError(err, t.name, core.logger);
    }
  });
  return server;
}
