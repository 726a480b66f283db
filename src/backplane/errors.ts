// Typed refusals of the backplane, with the texts callers read (the spec's where it has one).
import { ConflictError, DomainError, NotFoundError } from '../shared/index.js';

/** A refusal the caller reads as a tool-error (missing field, archived channel, …). */
export class BackplaneRefusalError extends DomainError {
  constructor(message: string) {
    super('backplane_refusal', message);
  }
}

/** The principal may not do this (an observer sending, a worker registering agents). */
export class BackplaneForbiddenError extends BackplaneRefusalError {}

/** Someone already holds the nick (any case). */
export class NickTakenError extends ConflictError {
  constructor(nick: string) {
    super(`nick is taken: ${nick}`);
  }
}

export class AgentNotFoundError extends NotFoundError {
  constructor(nick: string) {
    super(`agent not found: ${nick}`);
  }
}

export class ChannelNotFoundError extends NotFoundError {
  constructor(channel: string) {
    super(`channel not found: ${channel}`);
  }
}

/** The texts of refusals that need no arguments. */
export const REFUSALS = {
  required: (field: string): string => `${field} is required`,
  archived: (channel: string): string => `channel ${channel} is archived (read-only)`,
  observer: 'observers cannot send messages',
  registerDenied: 'only the operator or an orchestrator may register agents',
  operatorOnly: (what: string): string => `only the operator may ${what}`,
} as const;
