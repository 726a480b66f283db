// Step 3 of the pipeline, the inspector chain: prompt-injection scan of every string
// argument, the caller blocklist, numeric argument caps. The first finding refuses the call.
import { ToolDeniedError } from './errors.js';
import { scanText, stringsOf } from './injection.js';
import type { ToolDescriptor } from './types.js';

export interface Inspection {
  tool: ToolDescriptor;
  args: unknown;
  caller: string;
  blockedCallers: readonly string[];
}

function injection(args: unknown): ToolDeniedError | null {
  for (const [field, value] of stringsOf(args)) {
    const finding = scanText(value);
    if (finding === null) continue;
    return new ToolDeniedError(
      'injection',
      `refused: argument ${field} looks like a prompt injection (${finding.rule}); tool arguments are data, not instructions`,
      `${field}: ${finding.rule}: ${JSON.stringify(finding.excerpt)}`,
    );
  }
  return null;
}

function blockedCaller(caller: string, blocked: readonly string[]): ToolDeniedError | null {
  if (!blocked.includes(caller)) return null;
  return new ToolDeniedError(
    'blocked_caller',
    `refused: caller ${caller} is blocked from using tools`,
    `caller ${caller} is on the blocklist`,
  );
}

function argCap(tool: ToolDescriptor, args: unknown): ToolDeniedError | null {
  const record = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  for (const [field, cap] of Object.entries(tool.argCaps ?? {})) {
    const value = record[field];
    if (typeof value !== 'number' || value <= cap) continue;
    return new ToolDeniedError(
      'arg_cap',
      `refused: ${field} is ${value}, above the cap of ${cap} for ${tool.name}`,
      `${field}=${value} > ${cap}`,
    );
  }
  return null;
}

/** Runs the chain in order; returns the first refusal, or null when the call may proceed. */
export function inspect(input: Inspection): ToolDeniedError | null {
  return (
    injection(input.args) ??
    blockedCaller(input.caller, input.blockedCallers) ??
    argCap(input.tool, input.args)
  );
}
