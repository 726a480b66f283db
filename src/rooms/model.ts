// Room shapes: a stored post, the delivered entry, a page, what a human reader sees (a post, a
// room), and the room-name convention. Pure: the dashboard imports these types.

/**
 * `user` marks a human's post (the dashboard). It is a label for teammates, never authority:
 * the envelope of a user post still says `isUser=false` (see envelope.ts).
 */
export const POST_KINDS = ['message', 'system', 'user'] as const;
export type PostKind = (typeof POST_KINDS)[number];

export interface RoomPost {
  roomId: string;
  seq: number;
  authorAgentId: string;
  kind: PostKind;
  text: string;
  createdAt: number;
}

/** What a subscriber receives for one post. */
export interface DeliveredPost {
  seq: number;
  authorAgentId: string;
  kind: PostKind;
  /** The `[Inter-session message · … · isUser=false]` envelope, then the neutralised text. */
  wrapped: string;
}

export interface RoomPage {
  posts: DeliveredPost[];
  /** Pass back as `sinceSeq`; it moves past your own (skipped) posts too. */
  nextSeq: number;
}

/** A page for human readers: each post also carries its time (epoch ms; ISO 8601 on the wire). */
export interface TimedPage {
  posts: Array<DeliveredPost & { createdAt: number }>;
  nextSeq: number;
}

/**
 * One post as a human reader (the dashboard) sees it, in a team room or a backplane channel
 * (the backplane stores its envelopes as room posts). `createdAt` is epoch ms (ISO 8601 on the
 * wire, see src/shared/wire-times.ts).
 */
export interface RoomItem {
  seq: number;
  authorAgentId: string;
  /** A team room's post kind; in a channel `envelope` (an agent's) or `user` (a human's). */
  kind: PostKind | 'envelope';
  /** The enveloped text agents read (team rooms). */
  wrapped?: string;
  /** A channel envelope's `type`, `to` and `payload`. */
  type?: string;
  to?: string[];
  payload?: Record<string, unknown>;
  createdAt: number;
}

/** A room a human can open: a team room or a named backplane channel. */
export interface RoomSummary {
  roomId: string;
  name: string;
  kind: 'team' | 'channel';
  topic: string;
  members: number;
}

/** The one room a team has. */
export const teamRoom = (teamId: string): string => `team:${teamId}`;

/** The team of a `team:<teamId>` room, or undefined for any other name. */
export function teamOfRoom(roomId: string): string | undefined {
  return roomId.startsWith('team:') && roomId.length > 5 ? roomId.slice(5) : undefined;
}

export type DelegationOutcome = 'task_created' | 'dropped_unknown' | 'dropped_self';

export interface DelegationResult {
  acknowledged: true;
  assignee: string;
  outcome: DelegationOutcome;
  /** The board task created for the assignee (task_created only). */
  taskId?: string;
}
