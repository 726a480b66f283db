// A loopback HTTP server for provider tests (127.0.0.1, port 0): records each request's path
// and JSON body and answers through the test's handler; `hang` leaves a request unanswered
// until close, for timeouts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export type Answer = { status?: number; json?: unknown; raw?: string } | 'hang';

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

export async function loopback(handler: (seen: Seen) => Answer): Promise<Loopback> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void bodyOf(req).then((body) => {
      const s = { path: req.url ?? '', body, authorization: req.headers.authorization };
      seen.push(s);
      const answer = handler(s);
      if (answer === 'hang') return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(answer.raw ?? JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An OpenAI chat completions answer whose message is `content`. */
export const openAiChat = (content: string): Answer => ({
  json: { choices: [{ index: 0, message: { role: 'assistant', content } }] },
});

/** An Ollama /api/chat answer whose message is `content`. */
export const ollamaChat = (content: string): Answer => ({
  json: { model: 'm', message: { role: 'assistant', content }, done: true },
});
