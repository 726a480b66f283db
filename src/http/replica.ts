// Which `cairn serve` replica this is, for sticky Streamable HTTP sessions: session ids start
// with the replica's id, so a load balancer can route on them and a replica that gets another
// one's session can say so. Session state stays in-process; nothing here touches the database.
import { randomBytes, randomUUID } from 'node:crypto';

import { InvalidInputError } from '../shared/index.js';

/** Every HTTP answer names the replica that gave it. */
export const REPLICA_HEADER = 'cairn-replica';

const REPLICA_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * The replica id: `configured` (CAIRN_REPLICA_ID) when given, else 8 random hex digits, new at
 * each start.
 * @throws InvalidInputError when `configured` is not 1–32 letters, digits, `_` or `-`.
 */
export function replicaId(configured?: string): string {
  if (configured === undefined || configured === '') return randomBytes(4).toString('hex');
  if (!REPLICA_ID.test(configured)) {
    throw new InvalidInputError(
      `CAIRN_REPLICA_ID: ${JSON.stringify(configured)} must be 1-32 letters, digits, _ or -`,
    );
  }
  return configured;
}

/** A new session id issued by `replica`: `<replica>.<uuid>`. */
export const replicaSessionId = (replica: string): string => `${replica}.${randomUUID()}`;

/** The replica that issued `sessionId`, when the id has the `<replica>.<uuid>` shape. */
export function issuingReplica(sessionId: string): string | undefined {
  const dot = sessionId.indexOf('.');
  const prefix = dot > 0 ? sessionId.slice(0, dot) : '';
  return REPLICA_ID.test(prefix) ? prefix : undefined;
}

/**
 * Why `sessionId` is unknown here, when another replica issued it; undefined when it is this
 * replica's own (closed, idle-swept, or from before a restart) or not a replica's id at all.
 */
export function wrongReplica(sessionId: string, self: string): string | undefined {
  const issuer = issuingReplica(sessionId);
  if (issuer === undefined || issuer === self) return undefined;
  return (
    `session ${sessionId} lives on replica ${issuer}, not on this one (${self}): MCP sessions ` +
    `are kept by the replica that opened them, so the load balancer must be sticky, routing ` +
    `each request to the replica named before the first "." of its Mcp-Session-Id header ` +
    `(see docs/architecture.md); if replica ${issuer} has stopped, initialize a new session`
  );
}
