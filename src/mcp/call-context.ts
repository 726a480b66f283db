// The per-call context every tool handler receives (ToolCallContext), built from one tools/call:
// the abort signal, the request's `_meta`, the session's client name, and a progress reporter
// when the client asked for progress. Builds; never decides anything about the call.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';

import { clientName } from './session-origin.js';
import type { CallExtra, ToolCallRequest } from './tool-call.js';
import type { ProgressReporter, ToolCallContext } from './tool.js';

/** The client's progress token, when `_meta.progressToken` is one (a string or a number). */
const progressToken = (v: unknown): ProgressToken | undefined =>
  typeof v === 'string' || typeof v === 'number' ? v : undefined;

/**
 * `notifications/progress` for `token`, or undefined without one. Reports that do not grow are
 * dropped (the protocol requires progress to increase); a failed send is logged at debug.
 */
function progressReporter(
  token: ProgressToken | undefined,
  extra: CallExtra,
  logger: Logger,
): ProgressReporter | undefined {
  if (token === undefined) return undefined;
  let last = -Infinity;
  return (report) => {
    if (!(report.progress > last)) return;
    last = report.progress;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, ...report },
      })
      .catch((err: unknown) => logger.debug({ err }, 'progress notification failed'));
  };
}

/** The context of one tools/call on `server`. */
export function callContext(
  server: Server,
  request: ToolCallRequest,
  extra: CallExtra,
  logger: Logger,
): ToolCallContext {
  return {
    signal: extra.signal,
    meta: request._meta,
    client: clientName(server),
    progress: progressReporter(progressToken(request._meta?.['progressToken']), extra, logger),
  };
}
