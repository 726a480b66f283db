// `cairn open`: asks a running `cairn serve` (with the API token) for a one-time login code and
// prints the dashboard URL carrying it; without --print it also tries to open a browser. The
// code rides the URL fragment, so it never reaches server logs or a Referer header. The server
// is --url, else the one serve.json records, else the default URL (saying so).
import { spawn } from 'node:child_process';

import { ensureApiToken } from '../http/index.js';
import { cairnHome } from '../store/index.js';
import { UsageError } from './args.js';
import { resolveServerUrl } from './serve-record.js';

async function mintCode(base: string, token: string): Promise<{ code: string; expiresAt: string }> {
  let res: Response;
  try {
    res = await fetch(`${base}/api/auth/login-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    throw new Error(`cannot reach ${base} (is \`cairn serve\` running?): ${(e as Error).message}`);
  }
  if (res.status !== 201) {
    throw new Error(`${base} refused a login code (${res.status}): ${await res.text()}`);
  }
  return (await res.json()) as { code: string; expiresAt: string };
}

/** Best effort: the platform's URL opener, detached; failures only print a hint. */
function tryOpen(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () =>
      process.stderr.write('cairn: could not open a browser; visit the URL above\n'),
    );
    child.unref();
  } catch {
    process.stderr.write('cairn: could not open a browser; visit the URL above\n');
  }
}

/** `cairn open [--print] [--url BASE]`. */
export async function open(values: {
  print?: boolean | undefined;
  url?: string | undefined;
}): Promise<void> {
  const home = cairnHome();
  const server = resolveServerUrl(values.url, home);
  if (server.assumed !== undefined) process.stderr.write(`cairn: ${server.assumed}\n`);
  const base = server.url;
  if (!/^https?:\/\/[^/]+$/.test(base)) {
    throw new UsageError(`--url must be a server base such as http://127.0.0.1:4870, not ${base}`);
  }
  const { code, expiresAt } = await mintCode(base, ensureApiToken(home));
  const url = `${base}/login#code=${encodeURIComponent(code)}`;
  process.stdout.write(`${url}\n`);
  process.stderr.write(`cairn: one-time login link, valid until ${expiresAt}\n`);
  if (values.print !== true) tryOpen(url);
}
