// The service core façades are built on.
export { type Core, type CoreOptions, createCore, createLogger } from './core.js';
