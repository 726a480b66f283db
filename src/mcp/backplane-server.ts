// The backplane MCP server (`cairn-backplane`): get_status, list_channels, register_agent,
// send_message and get_history with the spec's text outputs. The acting principal comes from
// the transport (bearer token over HTTP; the local user, or --agent-token, over stdio) and is
// the `from` of every message; no argument can change it.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
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
  type TextOutput,
  textResult,
} from './backplane-format.js';
import { RpcError } from './errors.js';
import { type CallContextFactory, createMcpServer } from './server.js';
import { defineTool, type ToolCallContext, type ToolDef } from './tool.js';

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

/** A backplane tool call's context: the transport's, plus who is acting. */
interface BackplaneCallContext extends ToolCallContext {
  principal: Principal;
}

type TextTool = ToolDef<z.ZodType, BackplaneCallContext, TextOutput>;

const tool = <S extends z.ZodType>(t: ToolDef<S, BackplaneCallContext, TextOutput>): TextTool =>
  defineTool(t);

function tools(core: Core): TextTool[] {
  const bp = core.backplane;
  return [
    tool({
      name: 'get_status',
      description:
        'Returns daemon health and agent count (active = seen in the last 5 min or connected over IRC).',
      input: getStatusInput,
      handler: async () => {
        const counts = await bp.status();
        return { text: statusText(counts), structured: { status: 'ok', ...counts } };
      },
    }),
    tool({
      name: 'list_channels',
      description: 'Lists channels with member count and topic (archived channels are left out).',
      input: listChannelsInput,
      handler: async () => ({ text: channelsText(await bp.channels.list()) }),
    }),
    tool({
      name: 'register_agent',
      description:
        'Register a new agent (nick unique; type worker (default), orchestrator or observer; channels to join) and receive its credentials: the IRC password and a bearer token for MCP/REST. The password and token are returned once. Store them before calling another tool. Only the operator or an orchestrator may register.',
      input: registerAgentInput,
      handler: async (a, { principal }) => ({
        text: registeredText(await bp.register(principal, a)),
      }),
    }),
    tool({
      name: 'send_message',
      description:
        'Send a typed JSON envelope to a channel (e.g. #general). `type` is a dotted name (task.create, task.update, task.complete, agent.hello, agent.bye, text, or your own); `payload` is a JSON object (at most 64 KiB; `text` needs payload.text); `to` optionally names nicks or groups (@all, @workers, @orchestrators, @observers, @prefix-*). The sender is always you.',
      input: sendMessageInput,
      handler: async (a, { principal }) => {
        const m = await bp.send(principal, a);
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
      handler: async (a) => {
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

/** The principal for each call: the transport's, the operator, or the `--agent-token`'s agent. */
function principalContext(
  core: Core,
  binding: BackplaneBinding,
): CallContextFactory<BackplaneCallContext> {
  if (binding.principal !== undefined) {
    const principal = binding.principal;
    return (base) => Promise.resolve({ ...base, principal });
  }
  const token = binding.agentToken;
  if (token === undefined || token === '') {
    return (base) => Promise.resolve({ ...base, principal: { kind: 'operator' } });
  }
  let cached: Promise<Principal | undefined> | undefined;
  return async (base) => {
    cached ??= core.backplane.agents.authenticateToken(token);
    const principal = await cached;
    if (principal === undefined) {
      cached = undefined;
      throw new RpcError(UNAUTHORIZED_CODE, 'Unauthorized');
    }
    return { ...base, principal };
  };
}

/** Builds one backplane server instance for one connection. */
export function createBackplaneServer(core: Core, binding: BackplaneBinding = {}): Server {
  return createMcpServer({
    name: BACKPLANE_SERVER_NAME,
    version: core.version,
    tools: tools(core),
    logger: core.logger,
    context: principalContext(core, binding),
    format: textResult,
  });
}
