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

export function vaultTool<S extends z.ZodType>(
  def: ToolDef<S, ToolCallContext, VaultOutput>,
): VaultTool {
  return defineTool(def);
}
