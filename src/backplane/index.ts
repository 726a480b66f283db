// The backplane: registered agents, named channels over team rooms, typed envelopes.
export { type Agent, type Agents, type Credentials, type Principal } from './agents.js';
export {
  type Backplane,
  type BackplaneOptions,
  createBackplane,
  HISTORY_LIMITS,
  nickOf,
  type Page,
  type RegisterInput,
  type SendInput,
} from './backplane.js';
export { type Channel, type Channels, type CreateChannelInput, TOPIC_MAX } from './channels.js';
export { AGENT_TOKEN_PREFIX } from './credentials.js';
export {
  BUILTIN_TYPES,
  type Envelope,
  ENVELOPE_LIMITS,
  type EnvelopeInput,
  type Payload,
} from './envelope.js';
export {
  AgentNotFoundError,
  BackplaneForbiddenError,
  BackplaneRefusalError,
  ChannelNotFoundError,
  NickTakenError,
} from './errors.js';
export { type Message } from './messages.js';
export {
  AGENT_TYPES,
  type AgentType,
  CHANNEL_RULE,
  type ChannelKind,
  channelOfRoom,
  HUMAN_NICK,
  isAddressedTo,
  isValidNick,
  NICK_RULE,
  OPERATOR_NICK,
  parseChannel,
} from './names.js';
export {
  createChannelInput,
  getHistoryInput,
  getStatusInput,
  listChannelsInput,
  messagesQuery,
  registerAgentInput,
  sendMessageInput,
  setTopicInput,
} from './schemas.js';
export { createUlidFactory, isUlid } from './ulid.js';
