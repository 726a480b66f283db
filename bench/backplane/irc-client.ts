// A minimal raw IRC client for the backplane bench: logs in with PASS, joins, writes lines
// and reports every line it receives. Loopback only; every wait is bounded.
import { connect, type Socket } from 'node:net';

export interface BenchIrcClient {
  socket: Socket;
  /** Called for every line received (after login). */
  onLine: ((line: string) => void) | undefined;
  send(lines: readonly string[]): void;
  close(): void;
}

function waitFor(lines: string[], re: RegExp, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (lines.some((l) => re.test(l))) resolve();
      else if (Date.now() > deadline) reject(new Error(`IRC: no ${String(re)} within ${ms} ms`));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

/** Connects, logs in as `nick` and joins `channel`. */
export async function ircLogin(
  port: number,
  nick: string,
  password: string,
  channel: string,
): Promise<BenchIrcClient> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  const early: string[] = [];
  let buffer = '';
  const client: BenchIrcClient = {
    socket,
    onLine: undefined,
    send: (lines) => void socket.write(lines.map((l) => `${l}\r\n`).join('')),
    close: () => socket.destroy(),
  };
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\r\n');
    buffer = parts.pop() ?? '';
    for (const line of parts) {
      if (client.onLine === undefined) early.push(line);
      else client.onLine(line);
    }
  });
  socket.on('error', () => undefined);
  client.send([`PASS ${nick}:${password}`, `NICK ${nick}`, `USER ${nick} 0 * :${nick}`]);
  await waitFor(early, / 376 /, 10_000);
  client.send([`JOIN ${channel}`]);
  await waitFor(early, new RegExp(` 366 ${nick} ${channel.replace(/\./g, '\\.')} `), 10_000);
  return client;
}
