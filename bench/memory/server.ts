// The memory bench's HTTP server child: the same core and HTTP service `cairn serve` builds
// (saves wake the background embedder), except that its embedder is the synthetic one, as the
// 100k database's vectors are. Loopback, no auth. Prints `listening on <url>`.
// Usage: node --import tsx bench/memory/server.ts <db-path>
import { randomBytes } from 'node:crypto';

import pino from 'pino';

import { createCore } from '../../src/core/index.js';
import { createHttpService } from '../../src/http/index.js';
import { createFakeEmbedder } from './fake-embedder.js';

const dbPath = process.argv[2];
if (dbPath === undefined) throw new Error('usage: server.ts <db-path>');
const core = await createCore({
  dbPath,
  embedder: createFakeEmbedder(),
  autoEmbed: true,
  logger: pino({ level: 'warn' }, pino.destination(2)),
});
const http = createHttpService(core, {
  host: '127.0.0.1',
  port: 0,
  apiToken: null,
  secret: randomBytes(32).toString('hex'),
});
const addr = await http.listen();
core.embedWorker?.wake();
process.stdout.write(`listening on ${addr.url}\n`);

async function stop(): Promise<void> {
  await http.close();
  await core.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
