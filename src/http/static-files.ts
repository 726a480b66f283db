// Serves the dashboard's built assets (web/dist) at `/`: known content types, no path outside
// the root, and index.html for client routes (paths without a file extension); before the
// dashboard is built, a page that says how to build it. It never serves /api/*; the caller
// routes those first.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** web/dist next to src/ or dist/ (both sit two levels below the package root). */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a URL path names inside `root`, or undefined when it would escape it. */
export function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const base = resolve(root);
  const file = resolve(join(base, decoded));
  return file === base || file.startsWith(base + sep) ? file : undefined;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

const HTML_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
} as const;

function sendFile(req: IncomingMessage, res: ServerResponse, file: string, size: number): void {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const hashed = /[\\/]assets[\\/]/.test(file);
  res.writeHead(200, {
    'content-type': type,
    'content-length': size,
    'x-content-type-options': 'nosniff',
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(type.startsWith('text/html') ? HTML_HEADERS : {}),
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}

/** The page `/` (and every client route) shows while web/dist has no index.html. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cairn: the dashboard is not built</title></head>
<body>
<h1>The dashboard is not built</h1>
<p>Cairn is running (its MCP servers and REST API answer), but the dashboard's files
(<code>web/dist</code>) are missing. Build them in the Cairn folder, then reload this page:</p>
<pre>npm run build:web</pre>
<p>(<code>npm start</code> builds them too when they are missing.)</p>
</body></html>
`;

function sendNotBuilt(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(NOT_BUILT_PAGE),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    ...HTML_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
}

/** True when `root` holds a built dashboard (its index.html). */
export async function isDashboardBuilt(root: string = DEFAULT_WEB_ROOT): Promise<boolean> {
  return isFile(join(root, 'index.html'));
}

/**
 * Serves a GET/HEAD for a non-API path from `root`. Before the dashboard is built, `/` and
 * client routes get a 503 page saying how to build it. Returns false (nothing sent) when the
 * method is not GET/HEAD or the path names a missing asset.
 */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  root: string,
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const index = join(root, 'index.html');
  if (!(await isFile(index))) {
    if (extname(path) !== '') return false;
    sendNotBuilt(req, res);
    return true;
  }
  const file = resolveInside(root, path);
  if (file === undefined) return false;
  if (await isFile(file)) {
    sendFile(req, res, file, (await stat(file)).size);
    return true;
  }
  // A client route (no extension) gets the app; a missing asset is a 404.
  if (extname(path) !== '') return false;
  sendFile(req, res, index, (await stat(index)).size);
  return true;
}
