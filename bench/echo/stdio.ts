// Child-process entry: the echo server over stdio (spawned by the bench, one per client).
// Writes nothing but protocol to stdout; exits when stdin closes.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { createEchoServer } from './server.js';

const server = createEchoServer();
process.stdin.once('end', () => {
  void server.close().finally(() => process.exit(0));
});
await server.connect(new StdioServerTransport());
