// Shared utilities every layer may import; imports nothing from the project.
export {
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  PolicyError,
} from './errors.js';
export { jsonObject } from './json.js';
export { type PassLoop, passLoop } from './pass-loop.js';
export { firstInvisible, stripInvisible, stripInvisibleDeep } from './text.js';
export { describeIssues, dropNullOptionals } from './tool-args.js';
export { isoTime, isoTimes, type TimeKey, TIME_KEYS, type WireTimes } from './wire-times.js';
