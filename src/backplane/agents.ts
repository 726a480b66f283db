// The agent registry: registration (the nick is unique in any case; the table decides, so two
// processes racing for one nick get exactly one winner), credentials issued once and kept
// only as scrypt hashes, token and password checks, rotation, revocation and presence.
import { createHash } from 'node:crypto';

import type { Queryable, Store } from '../store/index.js';
import { issueCredentials, tokenIdOf, verifySecret } from './credentials.js';
import { AgentNotFoundError, NickTakenError } from './errors.js';
import { type AgentType, checkNick } from './names.js';
import {
  type AgentRow,
  insertAgent,
  revokeAgent,
  selectAgent,
  selectAgentByTokenId,
  selectAgents,
  touchAgent,
  updateCredentials,
} from './queries.js';

/** Who is acting: the operator (server API token, local stdio user) or a registered agent. */
export type Principal = { kind: 'operator' } | { kind: 'agent'; nick: string; type: AgentType };

export interface Agent {
  nick: string;
  type: AgentType;
  createdBy: string;
  createdAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
  lastSeenAt: number | null;
  /** Seen within the presence window, or connected over IRC to this process. */
  active: boolean;
}

export interface Credentials {
  nick: string;
  /** Shown once; only its hash is stored. */
  password: string;
  /** Bearer token for MCP and REST; shown once; only its hash is stored. */
  token: string;
}

/** What registration needs; the credentials are issued, never given. */
export interface NewAgent {
  nick: string;
  type: AgentType;
  createdBy: string;
}

/** A checked agent row and its one-time secrets, not yet stored (see `prepare`). */
export interface PreparedAgent {
  row: AgentRow;
  credentials: Credentials;
}

export interface AgentsOptions {
  clock: () => number;
  /** Presence window. Default 5 min. */
  activeMs?: number;
}

/** A last-seen write is skipped when the stored value is younger than this. */
const TOUCH_EVERY_MS = 15_000;
const CACHE_CAP = 10_000;

const digest = (token: string): string => createHash('sha256').update(token).digest('base64url');

export type Agents = ReturnType<typeof createAgents>;

/** Builds the registry over a store. */
export function createAgents(store: Store, options: AgentsOptions) {
  const { clock } = options;
  const activeMs = options.activeMs ?? 5 * 60_000;
  /** token digest → the stored hash it was verified against (skips scrypt on repeat calls). */
  const verified = new Map<string, string>();
  const touched = new Map<string, number>();
  const connections = new Map<string, number>();

  const isActive = (row: AgentRow, now: number): boolean =>
    row.revoked_at === null &&
    ((connections.get(row.nick.toLowerCase()) ?? 0) > 0 ||
      (row.last_seen_at !== null && row.last_seen_at >= now - activeMs));

  const toAgent = (row: AgentRow, now: number): Agent => ({
    nick: row.nick,
    type: row.type,
    createdBy: row.created_by,
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
    revokedAt: row.revoked_at,
    lastSeenAt: row.last_seen_at,
    active: isActive(row, now),
  });

  async function list(): Promise<Agent[]> {
    const now = clock();
    return (await selectAgents(store)).map((r) => toAgent(r, now));
  }

  async function find(nick: string): Promise<AgentRow> {
    const row = await selectAgent(store, nick);
    if (row === undefined) throw new AgentNotFoundError(nick);
    return row;
  }

  /** Records that the agent was seen (throttled per process). */
  async function touch(nick: string): Promise<void> {
    const now = clock();
    const key = nick.toLowerCase();
    if ((touched.get(key) ?? -Infinity) > now - TOUCH_EVERY_MS) return;
    if (touched.size >= CACHE_CAP) touched.clear();
    touched.set(key, now);
    await touchAgent(store, nick, now);
  }

  /**
   * Checks the nick and issues credentials, writing nothing: `insert` the result in a write
   * transaction (with whatever must commit alongside it), or call `register`.
   * @throws InvalidInputError for a malformed or reserved nick; NickTakenError.
   */
  async function prepare(input: NewAgent): Promise<PreparedAgent> {
    const nick = checkNick(input.nick);
    // An early refusal that skips scrypt; the insert still decides a race.
    if ((await selectAgent(store, nick)) !== undefined) throw new NickTakenError(nick);
    const c = await issueCredentials();
    const row: AgentRow = {
      ...{ nick, type: input.type, created_by: input.createdBy, created_at: clock() },
      ...{ password_hash: c.passwordHash, token_id: c.tokenId, token_hash: c.tokenHash },
      ...{ rotated_at: null, revoked_at: null, last_seen_at: null },
    };
    return { row, credentials: { nick, password: c.password, token: c.token } };
  }

  /** Inserts a prepared agent inside `tx`. @throws NickTakenError (the nick, in any case). */
  async function insert(tx: Queryable, agent: PreparedAgent): Promise<Credentials> {
    if (!(await insertAgent(tx, agent.row))) throw new NickTakenError(agent.row.nick);
    return agent.credentials;
  }

  return {
    prepare,
    insert,

    /**
     * Registers an agent and returns its credentials (the only time they are shown).
     * @throws InvalidInputError for a malformed or reserved nick; NickTakenError.
     */
    async register(input: NewAgent): Promise<Credentials> {
      const agent = await prepare(input);
      return store.write((tx) => insert(tx, agent));
    },

    /** The agent a bearer token belongs to, or undefined (unknown, wrong or revoked). */
    async authenticateToken(token: string): Promise<Principal | undefined> {
      const tokenId = tokenIdOf(token);
      if (tokenId === undefined) return undefined;
      const row = await selectAgentByTokenId(store, tokenId);
      if (row === undefined || row.revoked_at !== null) return undefined;
      const key = digest(token);
      if (verified.get(key) !== row.token_hash) {
        if (!(await verifySecret(token, row.token_hash))) return undefined;
        if (verified.size >= CACHE_CAP) verified.clear();
        verified.set(key, row.token_hash);
      }
      await touch(row.nick);
      return { kind: 'agent', nick: row.nick, type: row.type };
    },

    /** The agent for a nick and password (IRC SASL PLAIN / PASS), or undefined. */
    async authenticatePassword(nick: string, password: string): Promise<Principal | undefined> {
      const row = await selectAgent(store, nick);
      if (row === undefined || row.revoked_at !== null) return undefined;
      if (!(await verifySecret(password, row.password_hash))) return undefined;
      await touch(row.nick);
      return { kind: 'agent', nick: row.nick, type: row.type };
    },

    /**
     * New password and token; the old ones stop working at once. Reinstates a revoked agent.
     * @throws AgentNotFoundError.
     */
    async rotate(nick: string): Promise<Credentials> {
      const row = await find(nick);
      const c = await issueCredentials();
      const now = clock();
      const update = {
        passwordHash: c.passwordHash,
        tokenId: c.tokenId,
        tokenHash: c.tokenHash,
        now,
      };
      if (!(await store.write((tx) => updateCredentials(tx, row.nick, update)))) {
        throw new AgentNotFoundError(nick);
      }
      return { nick: row.nick, password: c.password, token: c.token };
    },

    /**
     * Disables an agent's password and token. The nick stays reserved, so nobody else can
     * post under a name its history carries.
     * @throws AgentNotFoundError.
     */
    async revoke(nick: string): Promise<Agent> {
      const row = await find(nick);
      await store.write((tx) => revokeAgent(tx, row.nick, clock()));
      return toAgent(await find(row.nick), clock());
    },

    /** One agent. @throws AgentNotFoundError. */
    get: async (nick: string): Promise<Agent> => toAgent(await find(nick), clock()),

    /** Every agent, revoked ones included, by nick. */
    list,

    /** `{ active, total }` over agents that are not revoked. */
    async counts(): Promise<{ active: number; total: number }> {
      const agents = (await list()).filter((a) => a.revokedAt === null);
      return { active: agents.filter((a) => a.active).length, total: agents.length };
    },

    touch,

    /**
     * Marks an agent connected (the IRC gateway, per connection): active in this process while
     * any connection is open. Returns the release to call on disconnect (idempotent).
     */
    markConnected(nick: string): () => void {
      const key = nick.toLowerCase();
      connections.set(key, (connections.get(key) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (connections.get(key) ?? 1) - 1;
        if (left <= 0) connections.delete(key);
        else connections.set(key, left);
      };
    },
  };
}
