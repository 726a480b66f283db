// Shared utilities every layer may import; imports nothing from the project.
export {
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  PolicyError,
} from './errors.js';
export { isoTime, isoTimes, type TimeKey, TIME_KEYS, type WireTimes } from './wire-times.js';
