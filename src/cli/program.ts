// Builds the commander parser and the help texts from the command table: one commander command
// per table entry (grouped under `mcp`, `approvals`, `agents`), strict about unknown flags and
// extra arguments, and a top-level help that lists every command with every flag.
import { Command, Option } from 'commander';

import type { CommandSpec, FlagSpec, RawValues } from './flags.js';
import { flagUsage } from './flags.js';

export const TAGLINE = 'cairn — a shared place to work for teams of AI agents';

const ENVIRONMENT = `environment: CAIRN_HOME (default ~/.cairn), CAIRN_DB_PATH, CAIRN_DB_URL, CAIRN_HOST, CAIRN_PORT,
             CAIRN_LEASE_MS, CAIRN_LOG_LEVEL, CAIRN_IRC_HOST, CAIRN_IRC_PORT, CAIRN_AGENT_TOKEN,
             CAIRN_EMBEDDINGS (see the README's configuration table)
files:       $CAIRN_HOME/cairn.db, api_token, server_secret, and serve.json while cairn serve
             runs (where it listens; config, open, approvals, audit and agents read it)
`;

const usageOf = (spec: CommandSpec): string =>
  ['cairn', ...spec.path, ...spec.args.map((a) => `<${a.name}>`)].join(' ');

const pad = (text: string, width: number): string =>
  text.length >= width ? `${text}  ` : text.padEnd(width);

function flagLine(name: string, spec: FlagSpec): string {
  const choices = spec.choices === undefined ? '' : ` (${spec.choices.join('|')})`;
  return `    ${pad(flagUsage(name, spec), 24)}${spec.help}${choices}\n`;
}

/** `cairn --help`: every command of the table with every flag it takes. */
export function topLevelHelp(table: readonly CommandSpec[]): string {
  let text = `${TAGLINE}\n\nusage: cairn <command> [flags]   (cairn <command> --help: one command)\n\n`;
  for (const spec of table) {
    text += `  ${pad(usageOf(spec), 30)}${spec.summary}\n`;
    for (const [name, flag] of Object.entries(spec.flags)) text += flagLine(name, flag);
  }
  text += `  ${pad('cairn --version', 30)}print the version (also -v)\n`;
  text += `  ${pad('cairn --help', 30)}this help (also -h, cairn help <command>)\n\n`;
  return text + ENVIRONMENT;
}

function optionOf(name: string, spec: FlagSpec): Option {
  const option =
    spec.type === 'string'
      ? new Option(`--${name} <${spec.arg ?? 'VALUE'}>`, spec.help)
      : new Option(`--${name}`, spec.help);
  return spec.choices === undefined ? option : option.choices(spec.choices);
}

/** The table's flag values from commander's parse, keyed by flag name (`no-auth`, `read-only`). */
function valuesOf(cmd: Command, spec: CommandSpec): RawValues {
  const opts = cmd.opts<Record<string, unknown>>();
  const values: Record<string, string | boolean | undefined> = {};
  for (const option of cmd.options) {
    const name = option.long?.slice(2);
    if (name === undefined || !Object.hasOwn(spec.flags, name)) continue;
    const raw = opts[option.attributeName()];
    // A `--no-x` switch reads as x=false in commander; the table's handlers see `no-x: true`.
    if (option.negate) values[name] = raw === false ? true : undefined;
    else if (typeof raw === 'string' || raw === true) values[name] = raw;
  }
  return values;
}

function addLeaf(parent: Command, spec: CommandSpec): Command {
  const name = spec.path[spec.path.length - 1] ?? '';
  const cmd = parent.command(name).description(spec.summary);
  for (const arg of spec.args) cmd.argument(`<${arg.name}>`, arg.help);
  for (const [flag, flagSpec] of Object.entries(spec.flags))
    cmd.addOption(optionOf(flag, flagSpec));
  cmd.action(async () => {
    const args = cmd.processedArgs.filter((a): a is string => typeof a === 'string');
    const values = valuesOf(cmd, spec);
    // --db-url stands for $CAIRN_DB_URL for this command: every core it opens uses PostgreSQL.
    const dbUrl = values['db-url'];
    if (typeof dbUrl === 'string') process.env['CAIRN_DB_URL'] = dbUrl;
    await spec.run([...spec.path.slice(1), ...args], values);
  });
  return cmd;
}

export interface ProgramIo {
  writeOut(text: string): void;
  writeErr(text: string): void;
}

/**
 * The commander program for `table`. Errors throw a CommanderError (exitOverride) after the
 * message, `cairn: <what is wrong>`, has gone to `io.writeErr`.
 */
export function buildProgram(
  table: readonly CommandSpec[],
  groups: Readonly<Record<string, string>>,
  version: string,
  io: ProgramIo,
): Command {
  const program = new Command('cairn')
    .description(TAGLINE)
    .version(version, '-v, --version', 'print the version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: io.writeOut,
      writeErr: io.writeErr,
      outputError: (text, write) => write(`cairn: ${text.replace(/^error: /, '')}`),
    });
  program.helpInformation = () => topLevelHelp(table);
  const parents = new Map<string, Command>();
  for (const spec of table) {
    const [head] = spec.path;
    if (spec.path.length === 1 || head === undefined) {
      // A leaf may also head a group (`cairn token` and `cairn token mint`).
      parents.set(head ?? '', addLeaf(program, spec));
      continue;
    }
    let parent = parents.get(head);
    if (parent === undefined) {
      parent = program.command(head).description(groups[head] ?? '');
      parents.set(head, parent);
    }
    addLeaf(parent, spec);
  }
  return program;
}
