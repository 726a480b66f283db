// The agent inbox: what was addressed to an agent while it works (a comment on a task it holds,
// an @mention in a room or a comment, a backplane envelope naming it, the notice that its claim
// expired). Writers address entries inside the transaction that stores the message; the tasks
// server hands each entry once to the agent's next tool call (the spec's inbox piggyback).
import { inList, type Queryable, type Store } from '../store/index.js';

export type InboxKind = 'comment' | 'mention' | 'message';

/** One message addressed to one agent, as written. */
export interface InboxEntry {
  agentId: string;
  kind: InboxKind;
  /** Where it was said: a task id or a room id (`team:t1`, `#builds`). */
  source: string;
  /** The message itself: a comment id, `<room>#<seq>`. */
  ref: string;
  /** Who said it (agent id, nick, `user`); null for the system. */
  author: string | null;
  text: string;
  at: number;
}

/** One delivered entry, as an agent reads it. */
export interface InboxItem {
  kind: InboxKind;
  source: string;
  ref: string;
  from: string | null;
  /** The message, cut to EXCERPT_CHARS. */
  text: string;
  /** ISO 8601. */
  at: string;
}

export interface InboxDelivery {
  items: InboxItem[];
  /** Entries still waiting after these (delivered on later calls). */
  more: number;
}

/** How much of a message rides along; the rest is a get_task or a room read away. */
export const EXCERPT_CHARS = 280;
/** Entries handed over per tool call at most. */
export const DELIVER_MAX = 10;
/** Mentions of one message that are addressed at most (bounds a message's fan-out). */
const MENTIONS_MAX = 20;
/** Undelivered entries older than this are dropped (an agent that never calls in). */
export const INBOX_KEEP_MS = 14 * 24 * 3600_000;

/**
 * The names a text @mentions, in order, without duplicates: `@name` at the start or after a
 * character that cannot end a name, name characters being letters, digits and `_ . : -`
 * (trailing punctuation is not part of the name: `@ann.` mentions `ann`). Email addresses
 * (`bob@example.com`) are not mentions.
 */
export function mentionsIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\p{L}\p{N}_.:@-])@([\p{L}\p{N}_][\p{L}\p{N}_.:-]*)/gu)) {
    const name = (m[1] ?? '').replace(/[.:-]+$/u, '');
    if (name !== '') found.add(name);
    if (found.size >= MENTIONS_MAX) break;
  }
  return [...found];
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  return flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS - 1)}…`;
}

/**
 * Addresses entries inside the caller's write transaction. An entry for its own author is
 * dropped (nobody is told what they said), and one message reaches an agent at most once.
 * Entries nobody collected within INBOX_KEEP_MS are pruned here.
 */
export async function addressInbox(tx: Queryable, entries: readonly InboxEntry[]): Promise<void> {
  const first = entries[0];
  if (first === undefined) return;
  await tx.run('DELETE FROM agent_inbox WHERE created_at < ?', [first.at - INBOX_KEEP_MS]);
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.agentId === '' || e.agentId === e.author || seen.has(e.agentId)) continue;
    seen.add(e.agentId);
    await tx.run(
      `INSERT INTO agent_inbox (agent_id, kind, source, ref, author, excerpt, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [e.agentId, e.kind, e.source, e.ref, e.author, excerpt(e.text), e.at],
    );
  }
}

/**
 * The entries of one message: each `direct` recipient as `kind`, then each name the text
 * @mentions (see mentionsIn). A name both addressed and mentioned keeps its first entry.
 */
export function messageEntries(
  text: string,
  where: Omit<InboxEntry, 'agentId' | 'kind' | 'text'>,
  direct: { agentIds: readonly string[]; kind: InboxKind },
): InboxEntry[] {
  return [
    ...direct.agentIds.map((agentId) => ({ ...where, agentId, kind: direct.kind, text })),
    ...mentionsIn(text).map((agentId) => ({ ...where, agentId, kind: 'mention' as const, text })),
  ];
}

interface InboxRow {
  id: number;
  kind: InboxKind;
  source: string;
  ref: string;
  author: string | null;
  excerpt: string;
  created_at: number;
}

/**
 * Hands over the oldest waiting entries of `agentId` (at most DELIVER_MAX) and deletes them in
 * the same write, so two sessions of one agent never both receive an entry. A call with
 * nothing waiting costs one indexed read and no write.
 */
export async function takeInbox(store: Store, agentId: string): Promise<InboxDelivery> {
  const pending = 'FROM agent_inbox WHERE agent_id = ?';
  if ((await store.get(`SELECT 1 AS x ${pending} LIMIT 1`, [agentId])) === undefined)
    return { items: [], more: 0 };
  return store.write(async (tx) => {
    const rows = await tx.all<InboxRow>(
      `SELECT id, kind, source, ref, author, excerpt, created_at ${pending} ORDER BY id LIMIT ?`,
      [agentId, DELIVER_MAX],
    );
    if (rows.length === 0) return { items: [], more: 0 };
    await tx.run(`DELETE FROM agent_inbox WHERE id IN ${inList(rows.length)}`, [
      ...rows.map((r) => r.id),
    ]);
    const left = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n ${pending}`, [agentId]);
    return {
      items: rows.map((r) => ({
        kind: r.kind,
        source: r.source,
        ref: r.ref,
        from: r.author,
        text: r.excerpt,
        at: new Date(r.created_at).toISOString(),
      })),
      more: left?.n ?? 0,
    };
  });
}
