// Broker shapes: tool descriptors, the denial reasons a refusal carries, and call options.
import type { z } from 'zod';

import type { Queryable } from '../store/index.js';
import type { Risk } from './model.js';

export const DENIED_REASONS = [
  'not_available',
  'invalid_args',
  'injection',
  'blocked_caller',
  'arg_cap',
  'approval_denied',
  'approval_expired',
  'circuit_open',
] as const;
export type DeniedReason = (typeof DENIED_REASONS)[number];

/** What the broker's environment offers a tool's availability predicate and executor. */
export interface ToolEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch: typeof fetch;
}

export interface ExecContext {
  readonly caller: string;
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** The store; for a tool that `writes`, the transaction that also writes its call's trail. */
  readonly db: Queryable;
  readonly tools: ToolEnv;
}

export interface ToolDescriptor<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
  risk: Risk;
  /** Listed and callable only while this holds (checked on every list and call). */
  available(env: ToolEnv): boolean;
  /** Caps on numeric arguments by field name; a larger value is refused as `arg_cap`. */
  argCaps?: Readonly<Record<string, number>>;
  /**
   * Its effect is rows in this database (note): it executes inside the write transaction that
   * records its call's trail (`ctx.db`), so effect and audit commit together. Such an executor
   * must be quick and touch nothing but `ctx.db` (it runs without the timeout race).
   */
  writes?: true;
  execute(args: z.output<S>, ctx: ExecContext): Promise<unknown>;
}

/** A tool as a listing shows it. */
export interface ListedTool {
  name: string;
  description: string;
  input: z.ZodType;
  risk: Risk;
}

/** Reported while a call waits for a human decision (the MCP layer sends progress). */
export interface WaitingInfo {
  approvalId: string;
  elapsedMs: number;
  expiresAt: number;
}

export interface CallInput {
  tool: string;
  args: unknown;
  caller: string;
  /**
   * The identity the server authenticated for this caller (`agent:<id>` for a bound agent), the
   * only key allow_always grants are stored and looked up by. Absent for an unbound session,
   * whose name is self-reported: it never inherits a grant and cannot receive one.
   */
  principal?: string | undefined;
  signal?: AbortSignal | undefined;
  onWaiting?: ((info: WaitingInfo) => void) | undefined;
  /**
   * Names the board task this call works for (the façade knows the rule and the board). Asked
   * only when the call waits for an approval, whose row then carries the task id.
   */
  resolveTask?: (() => Promise<string | null>) | undefined;
}

export interface CallResult {
  callId: string;
  data: unknown;
  /** The result text the model reads (JSON, or a compacted prefix with a marker). */
  text: string;
  /** Set when the output exceeded the byte budget. */
  compacted: { originalBytes: number; keptBytes: number } | null;
}
