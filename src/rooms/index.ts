// Team rooms: numbered posts, the inter-session envelope, long-poll, roster and delegation.
export { type DelegateInput } from './delegate.js';
export { envelopeHeader, FORGED_MARK, neutralise, wrapPost } from './envelope.js';
export { DELEGATE_FIELDS, EMPTY_TEXT, needIdentity, RoomRefusalError } from './errors.js';
export {
  type DelegationOutcome,
  type DelegationResult,
  type DeliveredPost,
  POST_KINDS,
  type PostKind,
  type RoomItem,
  type RoomPage,
  type RoomPost,
  type RoomSummary,
  teamOfRoom,
  teamRoom,
  type TimedPage,
} from './model.js';
export {
  createRooms,
  type PostInput,
  type ReadInput,
  type Rooms,
  type RoomsOptions,
  type SubscribeInput,
} from './rooms.js';
export type { PostRow } from './queries.js';
export {
  isValidId,
  optionalId,
  ROOM_LIMITS,
  roomPageQuery,
  roomPostBody,
  teamChatPostInput,
  teamChatSubscribeInput,
  teamDelegateInput,
} from './schemas.js';
