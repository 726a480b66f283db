// The shape of the CLI's one command table: each command's words, positional arguments, flags
// and handler. The parser (commander, see program.ts) and every help text are built from it, so
// a flag cannot be parsed without being listed, nor listed without being parsed.

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** The value's placeholder in help (PATH, ID, N); string flags only. */
  readonly arg?: string;
  readonly help: string;
  /** The only values accepted (checked by the parser, listed in help). */
  readonly choices?: readonly string[];
}

export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** What a handler receives for a flag table: a string or `true` per given flag, else absent. */
export type FlagValues<F extends FlagTable> = {
  -readonly [K in keyof F]?: (F[K]['type'] extends 'string' ? string : boolean) | undefined;
};

export type RawValues = Readonly<Record<string, string | boolean | undefined>>;

export interface ArgSpec {
  readonly name: string;
  readonly help: string;
}

/** One leaf command of the table, e.g. `cairn approvals approve <id> [--always]`. */
export interface CommandSpec {
  /** The words after `cairn`: ['serve'], ['approvals', 'approve'], ['mcp', 'tasks']. */
  readonly path: readonly string[];
  /** Required positional arguments, in order. */
  readonly args: readonly ArgSpec[];
  readonly summary: string;
  readonly flags: FlagTable;
  /**
   * Runs the command. `positionals` are the path's words after the first, then the arguments
   * (`approvals approve X` → ['approve', 'X']), so one handler can serve a command group.
   */
  readonly run: (positionals: string[], values: RawValues) => Promise<void>;
}

/** Declares a table entry whose handler sees its flags typed (strings as string, switches as boolean). */
export function command<F extends FlagTable>(spec: {
  path: readonly string[];
  args?: readonly ArgSpec[];
  summary: string;
  flags: F;
  run: (positionals: string[], values: FlagValues<F>) => Promise<void>;
}): CommandSpec {
  return {
    path: spec.path,
    args: spec.args ?? [],
    summary: spec.summary,
    flags: spec.flags,
    run: (positionals, values) => spec.run(positionals, values as FlagValues<F>),
  };
}

/** The flags of `table` named in `keys`, in that order. */
export function pickFlags<F extends FlagTable>(table: F, keys: readonly (keyof F)[]): F {
  return Object.fromEntries(keys.map((k) => [k, table[k]])) as unknown as F;
}

/** `--name ARG` as help shows it. */
export function flagUsage(name: string, spec: FlagSpec): string {
  return spec.type === 'string' ? `--${name} ${spec.arg ?? 'VALUE'}` : `--${name}`;
}
