// The HTTP façade: Streamable HTTP MCP mounts, auth, attach configs.
export {
  type AttachContext,
  attachInput,
  type AttachInput,
  type AttachSnippet,
  renderAttach,
  type Runtime,
  RUNTIMES,
} from './attach.js';
export { scopedToken, signedQuery, verifyBinding } from './binding.js';
export { allowedHostsFor, checkHostAndOrigin, isLoopbackHost } from './host-check.js';
export { BAD_SESSION, NO_SESSION } from './mcp-sessions.js';
export {
  API_TOKEN_FILE,
  apiTokenPath,
  ensureApiToken,
  ensureServerSecret,
  SECRET_FILE,
} from './secrets.js';
export { createHttpService, type HttpOptions, type HttpService } from './server.js';
export { isDashboardBuilt } from './static-files.js';
