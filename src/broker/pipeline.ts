// One pipeline per tool call, each step audited: availability, circuit, validation,
// inspection, approval, execution (with a timeout), compaction, then the result row.
import { randomUUID } from 'node:crypto';

import type { z } from 'zod';

import { DomainError, describeIssues, dropNullOptionals } from '../shared/index.js';
import type { Queryable, Store } from '../store/index.js';
import { awaitApproval } from './approval-wait.js';
import { appendAudit } from './audit.js';
import { POLICY_DENIALS, openUntil, tripIfNeeded } from './circuit.js';
import { compact } from './compaction.js';
import type { BrokerConfig } from './config.js';
import { ToolDeniedError, ToolFailedError } from './errors.js';
import { inspect } from './inspect.js';
import type { CallInput, CallResult, ToolDescriptor, ToolEnv } from './types.js';

export interface PipelineDeps {
  store: Store;
  config: BrokerConfig;
  tools: ReadonlyMap<string, ToolDescriptor>;
  toolEnv: ToolEnv;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

interface Call {
  deps: PipelineDeps;
  input: CallInput;
  callId: string;
  /** The tool name as audited (bounded: it comes from the client). */
  tool: string;
  /** Buffers one audit row (stamped now); `flush` writes the buffer in one transaction. */
  audit(step: string, outcome: string, detail?: unknown): void;
  /**
   * Writes the buffered rows: in a transaction of its own (then clears them), or inside the
   * caller's `tx` (the caller calls `committed()` once that transaction has committed).
   */
  flush(tx?: Queryable): Promise<void>;
  committed(): void;
  /** How many rows are buffered; `rewind` drops the ones buffered after that. */
  mark(): number;
  rewind(mark: number): void;
}

/** `invalid args: field: problem; …` (each problem once), the wording every server uses. */
function invalidArgs(error: z.ZodError): ToolDeniedError {
  const problems = describeIssues(error);
  return new ToolDeniedError('invalid_args', `invalid args: ${problems}`, problems);
}

async function gate(call: Call): Promise<{ tool: ToolDescriptor; args: unknown }> {
  const { deps, input } = call;
  const tool = deps.tools.get(input.tool);
  if (tool === undefined || !tool.available(deps.toolEnv)) {
    call.audit('availability', 'denied');
    throw new ToolDeniedError('not_available', `unknown tool: ${call.tool}`);
  }
  call.audit('availability', 'pass', { risk: tool.risk });
  const until = await openUntil(deps.store, input.caller, tool.name, deps.now());
  if (until !== null) {
    call.audit('circuit', 'denied', { openUntil: until });
    const secs = Math.ceil((until - deps.now()) / 1000);
    throw new ToolDeniedError(
      'circuit_open',
      `refused: too many denied ${tool.name} calls from ${input.caller}; try again in ${secs} s`,
      `circuit open until ${new Date(until).toISOString()}`,
    );
  }
  call.audit('circuit', 'pass');
  // A null for an optional field means "not given", as on every other server.
  const parsed = tool.input.safeParse(dropNullOptionals(tool.input, input.args ?? {}));
  if (!parsed.success) {
    call.audit('validation', 'denied');
    throw invalidArgs(parsed.error);
  }
  call.audit('validation', 'pass');
  return { tool, args: parsed.data };
}

async function execute(
  call: Call,
  tool: ToolDescriptor,
  args: unknown,
  db: Queryable,
): Promise<unknown> {
  const { deps, input } = call;
  const ms = deps.config.toolTimeoutMs;
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(input.signal?.reason);
  input.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ToolFailedError(tool.name, `timed out after ${ms} ms`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    const ctx = { caller: input.caller, callId: call.callId, signal: controller.signal };
    const env = { now: deps.now, db, tools: deps.toolEnv };
    const running = tool.execute(args, { ...ctx, ...env });
    // A database write inside the trail's transaction must not outlive it: no race there.
    return await (tool.writes === true ? running : Promise.race([running, timeout]));
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}

const failure = (err: unknown): { message: string } => ({
  message: err instanceof DomainError ? err.message : 'internal error',
});

async function executeAudited(
  call: Call,
  tool: ToolDescriptor,
  args: unknown,
  db: Queryable,
): Promise<unknown> {
  const started = call.deps.now();
  try {
    const data = await execute(call, tool, args, db);
    call.audit('execution', 'ok', { ms: call.deps.now() - started });
    return data;
  } catch (err) {
    call.audit('execution', 'error', failure(err));
    throw err;
  }
}

/** Buffers the compaction and result rows of a successful execution. */
function settle(call: Call, data: unknown): CallResult {
  const out = compact(JSON.stringify(data) ?? 'null', call.deps.config.outputBytes);
  call.audit('compaction', out.compacted === null ? 'within_budget' : 'truncated', out.compacted);
  call.audit('result', 'ok');
  return { callId: call.callId, data, text: out.text, compacted: out.compacted };
}

/**
 * Runs a tool that `writes` inside the transaction that writes its whole trail, so its rows
 * and their audit commit together or not at all (a crash between them left unaudited notes).
 * A retried transaction starts again from the same trail; a failed one is audited as a failed
 * execution, since nothing it wrote was kept.
 */
async function executeWithTrail(
  call: Call,
  tool: ToolDescriptor,
  args: unknown,
): Promise<CallResult> {
  const mark = call.mark();
  try {
    const result = await call.deps.store.write(async (tx) => {
      call.rewind(mark);
      const r = settle(call, await executeAudited(call, tool, args, tx));
      await call.flush(tx);
      return r;
    });
    call.committed();
    return result;
  } catch (err) {
    call.rewind(mark);
    call.audit('execution', 'error', failure(err));
    throw err;
  }
}

async function run(call: Call): Promise<CallResult> {
  const { deps, input } = call;
  const { tool, args } = await gate(call);
  const blockedCallers = deps.config.blockedCallers;
  const finding = inspect({ tool, args, caller: input.caller, blockedCallers });
  call.audit('inspection', finding === null ? 'pass' : 'denied');
  if (finding !== null) throw finding;
  // Gated tools: the trail so far is durable before a human is asked and before side effects.
  if (tool.risk !== 'safe') await call.flush();
  await awaitApproval({
    ...deps,
    callId: call.callId,
    tool: tool.name,
    risk: tool.risk,
    caller: input.caller,
    principal: input.principal,
    args,
    signal: input.signal,
    onWaiting: input.onWaiting,
    resolveTask: input.resolveTask,
    audit: async (outcome, detail) => {
      call.audit('approval', outcome, detail);
      if (tool.risk !== 'safe') await call.flush();
    },
  });
  if (tool.risk !== 'safe') await call.flush();
  // A caller gone after the approval returned: nothing runs with nobody waiting for it.
  if (input.signal?.aborted === true) {
    call.audit('execution', 'cancelled');
    throw new ToolFailedError(tool.name, 'the call was cancelled before it ran');
  }
  if (tool.writes === true) return executeWithTrail(call, tool, args);
  const result = settle(call, await executeAudited(call, tool, args, deps.store));
  await call.flush();
  return result;
}

/** The final audit row of a refused call; policy denials may open the circuit. */
async function recordDenial(call: Call, err: ToolDeniedError): Promise<void> {
  const { deps, input } = call;
  await deps.store.write(async (tx) => {
    const at = deps.now();
    const base = { at, callId: call.callId, tool: call.tool, caller: input.caller };
    await call.flush(tx);
    await appendAudit(tx, {
      ...base,
      step: 'result',
      outcome: 'denied',
      detail: { reason: err.reason, detail: err.detail },
    });
    if (!POLICY_DENIALS.includes(err.reason)) return;
    const policy = {
      threshold: deps.config.circuitThreshold,
      windowMs: deps.config.circuitWindowMs,
      cooldownMs: deps.config.circuitCooldownMs,
    };
    const opened = await tripIfNeeded(tx, {
      caller: input.caller,
      tool: call.tool,
      now: at,
      policy,
    });
    if (opened !== null)
      await appendAudit(tx, {
        ...base,
        step: 'circuit',
        outcome: 'opened',
        detail: { openUntil: opened },
      });
  });
  call.committed();
}

/**
 * Runs one call through the pipeline.
 * @throws ToolDeniedError (a typed refusal), ToolFailedError (the tool failed or timed out).
 */
export async function runPipeline(deps: PipelineDeps, input: CallInput): Promise<CallResult> {
  const callId = randomUUID();
  const tool = input.tool.slice(0, 200);
  const pending: { at: number; step: string; outcome: string; detail: unknown }[] = [];
  const audit = (step: string, outcome: string, detail?: unknown): void => {
    pending.push({ at: deps.now(), step, outcome, detail });
  };
  // Writes a snapshot and clears it only after the caller's transaction commits, because
  // store.write may run its function again after lock contention.
  const flush = async (tx?: Queryable): Promise<void> => {
    const rows = [...pending];
    if (rows.length === 0) return;
    const write = async (q: Queryable): Promise<void> => {
      for (const row of rows) await appendAudit(q, { ...row, callId, tool, caller: input.caller });
    };
    if (tx !== undefined) return write(tx);
    await deps.store.write(write);
    pending.splice(0, rows.length);
  };
  const committed = (): void => void pending.splice(0);
  const mark = (): number => pending.length;
  const rewind = (n: number): void => void pending.splice(n);
  const call: Call = { deps, input, callId, tool, audit, flush, committed, mark, rewind };
  try {
    return await run(call);
  } catch (err) {
    if (err instanceof ToolDeniedError) await recordDenial(call, err);
    else {
      audit('result', 'error', failure(err));
      await flush();
    }
    throw err;
  }
}
