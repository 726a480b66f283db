// Typed refusals of the rooms domain, with the texts the teamchat spec gives (or, where it
// names a refusal without text, one that says what to send instead).
import { DomainError } from '../shared/index.js';

/** A refusal the calling model reads as a tool-error (empty text, missing identity, …). */
export class RoomRefusalError extends DomainError {
  constructor(message: string) {
    super('room_refusal', message);
  }
}

export const EMPTY_TEXT = 'team_chat_post requires non-empty text';
export const DELEGATE_FIELDS = 'team_delegate requires both an assignee (teammate name) and a task';

/** The unbound-session refusal: the tool needs an author and a team in its arguments. */
export const needIdentity = (tool: string): string =>
  `${tool} requires authorAgentId and teamId (this connection is not bound to a room)`;
