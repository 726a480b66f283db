// Room shapes: a stored post, the delivered entry, a page, and the room-name convention.

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

/** A page for human readers: each post also carries its time (epoch ms). */
export interface TimedPage {
  posts: Array<DeliveredPost & { createdAt: number }>;
  nextSeq: number;
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
