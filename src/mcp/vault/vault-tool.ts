// What a cairn-vault tool is: a tool definition whose handler returns a readable text and the
// whole answer (sent as structuredContent), the shared annotations, and the declaration helper.
import type { z } from 'zod';

import { defineTool, type ToolCallContext, type ToolDef } from '../tool.js';

export interface VaultOutput {
  text: string;
  data: Record<string, unknown>;
}

export type VaultTool = ToolDef<z.ZodType, ToolCallContext, VaultOutput>;

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  openWorldHint: false,
} as const;

/** Hints of a tool that writes but removes nothing the caller cannot write back. */
export const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/** WRITE, and calling it again with the same arguments changes nothing more. */
export const IDEMPOTENT_WRITE = { ...WRITE, idempotentHint: true } as const;

export function vaultTool<S extends z.ZodType>(
  def: ToolDef<S, ToolCallContext, VaultOutput>,
): VaultTool {
  return defineTool(def);
}
