// `cairn agents list|rotate <nick>|revoke <nick>`: the operator's side of the backplane's
// agent registry. Opens the same database a running server uses (never creating one) and calls
// the domain directly. Flags and help come from the command table (command-table.ts).
import type { Agent, Agents } from '../backplane/index.js';
import { isoTime, isoTimes } from '../shared/index.js';
import { UsageError } from './args.js';
import { openReaderCore } from './database.js';

const out = (text: string): void => void process.stdout.write(text);

const USAGE = 'usage: cairn agents list [--json] | rotate <nick> | revoke <nick>   [--db PATH]';

async function withAgents<T>(db: string | undefined, fn: (a: Agents) => Promise<T>): Promise<T> {
  const core = await openReaderCore(db);
  try {
    return await fn(core.backplane.agents);
  } finally {
    await core.close();
  }
}

function agentLine(a: Agent): string {
  const state = a.revokedAt !== null ? 'revoked' : a.active ? 'active' : 'idle';
  const seen = a.lastSeenAt === null ? 'never seen' : `seen ${isoTime(a.lastSeenAt)}`;
  return `${a.nick.padEnd(20)} ${a.type.padEnd(12)} ${state.padEnd(8)} ${seen}\n`;
}

/** `cairn agents …`: list agents, rotate or revoke an agent's credentials. */
export async function agents(
  positionals: readonly string[],
  values: { db?: string | undefined; json?: boolean | undefined },
): Promise<void> {
  const [action, nick] = positionals;
  if (action === 'list') {
    const rows = await withAgents(values.db, (a) => a.list());
    if (values.json === true) return out(`${JSON.stringify(isoTimes(rows), null, 2)}\n`);
    return out(rows.length === 0 ? 'no agents\n' : rows.map(agentLine).join(''));
  }
  if (nick === undefined || (action !== 'rotate' && action !== 'revoke'))
    throw new UsageError(USAGE);
  if (action === 'revoke') {
    const a = await withAgents(values.db, (r) => r.revoke(nick));
    return out(
      `revoked ${a.nick}: its password and token no longer work (the nick stays reserved)\n`,
    );
  }
  const c = await withAgents(values.db, (r) => r.rotate(nick));
  out(
    `rotated ${c.nick} (shown once; the old credentials no longer work)\nnick: ${c.nick}\npassword: ${c.password}\ntoken: ${c.token}\n`,
  );
}
