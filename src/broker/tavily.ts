// The Tavily search call behind `web_search`: POST {base}/search with a bearer key. The base
// URL is configurable (CAIRN_TAVILY_URL) so tests can point it at a loopback stub.
import { ToolFailedError } from './errors.js';

export interface SearchHit {
  title: string;
  url: string;
  content: string;
  score: number | null;
}

export interface TavilyRequest {
  baseUrl: string;
  apiKey: string;
  query: string;
  maxResults: number;
  signal: AbortSignal;
  fetch: typeof fetch;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function toHits(body: unknown): SearchHit[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new ToolFailedError('web_search', 'unexpected response shape');
  return results.map((r: Record<string, unknown>) => ({
    title: str(r['title']),
    url: str(r['url']),
    content: str(r['content']),
    score: typeof r['score'] === 'number' ? r['score'] : null,
  }));
}

/** Runs one search. @throws ToolFailedError on a non-2xx answer or a malformed body. */
export async function tavilySearch(
  req: TavilyRequest,
): Promise<{ query: string; results: SearchHit[] }> {
  const url = `${req.baseUrl.replace(/\/+$/, '')}/search`;
  let res: Response;
  try {
    res = await post(req, url);
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    throw new ToolFailedError('web_search', 'search provider unreachable', { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new ToolFailedError('web_search', `search provider answered HTTP ${res.status}`);
  }
  const body = (await res.json().catch(() => null)) as unknown;
  return { query: req.query, results: toHits(body) };
}

function post(req: TavilyRequest, url: string): Promise<Response> {
  return req.fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${req.apiKey}`,
    },
    body: JSON.stringify({ query: req.query, max_results: req.maxResults, search_depth: 'basic' }),
    signal: req.signal,
  });
}
