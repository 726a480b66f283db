// The mapper answers provenance refusals with JSON-RPC -32602 and the spec's text as written
// (the context spec asks for a JSON-RPC error there), and leaves other refusals as tool errors.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { callRpcInvalid, linkedClient } from '../../test/helpers.js';
import {
  type Provenance,
  ProvenanceInvalidError,
  requireProvenance,
  resolveProvenance,
} from '../activity/index.js';
import { DomainError, InvalidInputError } from '../shared/index.js';
import { mapError, RpcError } from './errors.js';
import { createMcpServer } from './server.js';
import { defineTool } from './tool.js';

const logger = pino({ level: 'silent' });
const PARTIAL: Partial<Provenance> = {
  repo_path: '/r',
  worktree_id: 'main',
  agent_program: 'cairn-stdio',
  delegated: false,
  timestamp: 1,
  operator_id: 'ada',
  machine_id: 'box',
};
const SPEC_TEXT = "Missing execution provenance for 'index': session_id, project_id";

/** What mapError throws for `err`, or a failure when it returns. */
function thrown(err: unknown): unknown {
  try {
    mapError(err, 'index_repo', logger);
  } catch (e) {
    return e;
  }
  throw new Error('mapError returned instead of throwing');
}

function missing(): unknown {
  try {
    requireProvenance('index', { ...PARTIAL, model_id: 'm' }, { also: ['project_id'] });
  } catch (err) {
    return err;
  }
  throw new Error('requireProvenance did not refuse');
}

describe('mapError and provenance', () => {
  it('throws -32602 with the spec message for missing provenance', () => {
    const err = thrown(missing());
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).code).toBe(-32602);
    expect((err as RpcError).message).toBe(SPEC_TEXT);
  });

  it('throws -32602 for an invalid _meta value', () => {
    let invalid: unknown;
    try {
      resolveProvenance({ ...PARTIAL, session_id: 's' } as Provenance, { session_id: 7 });
    } catch (e) {
      invalid = e;
    }
    expect(invalid).toBeInstanceOf(ProvenanceInvalidError);
    const err = thrown(invalid);
    expect((err as RpcError).code).toBe(-32602);
    expect((err as RpcError).message).toBe(
      'Invalid execution provenance: _meta.session_id must be a string (got number)',
    );
  });

  it('still answers other refusals as tool errors', () => {
    expect(mapError(new InvalidInputError('bad', 'x'), 't', logger).isError).toBe(true);
    expect(mapError(new DomainError('c', 'no'), 't', logger).isError).toBe(true);
  });

  it('reaches a real client as JSON-RPC -32602 with the message', async () => {
    const server = createMcpServer({
      name: 'test',
      version: '0',
      logger,
      tools: [
        defineTool({
          name: 'index_repo',
          description: 'refuses for want of provenance',
          input: z.object({}),
          handler: () => {
            throw missing();
          },
        }),
      ],
    });
    const client = await linkedClient(server);
    // The wire message is exactly the spec's; the client's McpError adds its own prefix.
    expect(await callRpcInvalid(client, 'index_repo', {})).toBe(`MCP error -32602: ${SPEC_TEXT}`);
    await client.close();
  });
});
