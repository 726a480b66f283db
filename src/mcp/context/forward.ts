// A family's tools as a mode places them: forwarded to the remote (same name, schema and
// annotations; the arguments as the caller sent them, the call's resolved provenance in
// `_meta`, the remote's answer passed on as it came) or not served (a tool error naming the
// mode). Works for any family by its tools alone: no family knows it is forwarded.
import { AUTHENTICATED_AGENT, resolveProvenance } from '../../activity/index.js';
import type { ContextCallContext, ContextFamilyName, ContextTool } from './family.js';
import { type ContextMode, ModeUnservedError } from './modes.js';
import type { Remote } from './remote.js';

/** What the caller's `_meta` loses on the way: the SDK sets its own progress token. */
const LOCAL_META = ['progressToken', AUTHENTICATED_AGENT];

/**
 * The `_meta` of a forwarded call: the caller's own keys (a `cairn/token` included), and every
 * provenance field as this process resolved it (discovery here, the caller's overrides, the
 * client's name), so the remote records who really called and from where.
 * @throws ProvenanceInvalidError for a bad `_meta` value (JSON-RPC -32602, as locally).
 */
export async function forwardedMeta(ctx: ContextCallContext): Promise<Record<string, unknown>> {
  const { provenance } = await ctx.discovered();
  const resolved = resolveProvenance(
    provenance,
    ctx.meta,
    ctx.client === undefined ? {} : { clientName: ctx.client },
  );
  const own = Object.entries(ctx.meta ?? {}).filter(([k]) => !LOCAL_META.includes(k));
  const fields = Object.entries(resolved).filter(
    ([k, v]) => v !== undefined && k !== AUTHENTICATED_AGENT,
  );
  return { ...Object.fromEntries(own), ...Object.fromEntries(fields) };
}

/** `tool` answered by `remote`: retried after a failure only when read-only or idempotent. */
export function forwardedTool(tool: ContextTool, remote: Remote): ContextTool {
  const hints = tool.annotations;
  const idempotent = hints?.readOnlyHint === true || hints?.idempotentHint === true;
  return {
    ...tool,
    handler: async (_parsed, ctx) => {
      const result = await remote.call({
        name: tool.name,
        args: ctx.sent,
        meta: await forwardedMeta(ctx),
        idempotent,
        signal: ctx.signal,
        onProgress:
          ctx.progress === undefined
            ? undefined
            : ({ progress, total, message }) =>
                ctx.progress?.({
                  progress,
                  ...(total === undefined ? {} : { total }),
                  ...(message === undefined ? {} : { message }),
                }),
      });
      return { data: {}, forwarded: result };
    },
  };
}

/** `tool`, listed, answering every call with the mode_unserved tool error. */
export function unservedTool(
  tool: ContextTool,
  family: ContextFamilyName,
  mode: ContextMode,
): ContextTool {
  return {
    ...tool,
    handler: () => Promise.reject(new ModeUnservedError(tool.name, family, mode)),
  };
}
