// The four builtin tools of the spec. Executor bodies stay small on purpose: the pipeline
// around them (inspection, approval, audit) is the point. delete_path never deletes.
import type { z } from 'zod';

import { isoTimes } from '../shared/index.js';
import { insertNote } from './notes.js';
import { deletePathInput, echoInput, noteInput, webSearchInput } from './schemas.js';
import { tavilySearch } from './tavily.js';
import type { ToolDescriptor, ToolEnv } from './types.js';

/** The largest `limit` web_search accepts (`arg_cap` above it); Tavily returns at most 20. */
export const WEB_SEARCH_MAX_LIMIT = 20;
const WEB_SEARCH_DEFAULT_LIMIT = 5;

const always = (): boolean => true;
const tavilyKey = (t: ToolEnv): string => (t.env['TAVILY_API_KEY'] ?? '').trim();

function descriptor<S extends z.ZodType>(d: ToolDescriptor<S>): ToolDescriptor {
  return d as unknown as ToolDescriptor;
}

const echo = descriptor({
  name: 'echo',
  description: 'Echo a message back. Safe, no side effects.',
  input: echoInput,
  risk: 'safe',
  available: always,
  execute: (a) => Promise.resolve({ message: a.message }),
});

const note = descriptor({
  name: 'note',
  description: 'Record a short note. Safe.',
  input: noteInput,
  risk: 'safe',
  available: always,
  writes: true,
  // The tool's answer is what the model reads: its time is ISO 8601, as in every tool result.
  execute: async (a, ctx) => ({
    note: isoTimes(await insertNote(ctx.db, { caller: ctx.caller, note: a.note, now: ctx.now() })),
  }),
});

const webSearch = (tavilyUrl: string): ToolDescriptor =>
  descriptor({
    name: 'web_search',
    description: `Search the web. External side effect → requires approval. \`limit\` is 1–${WEB_SEARCH_MAX_LIMIT} (default ${WEB_SEARCH_DEFAULT_LIMIT}).`,
    input: webSearchInput,
    risk: 'external',
    available: (t) => tavilyKey(t) !== '',
    argCaps: { limit: WEB_SEARCH_MAX_LIMIT },
    execute: (a, ctx) =>
      tavilySearch({
        baseUrl: tavilyUrl,
        apiKey: tavilyKey(ctx.tools),
        query: a.query,
        maxResults: a.limit ?? WEB_SEARCH_DEFAULT_LIMIT,
        signal: ctx.signal,
        fetch: ctx.tools.fetch,
      }),
  });

const deletePath = descriptor({
  name: 'delete_path',
  description:
    'Delete a path. Destructive → requires approval. (Demo executor, does not actually delete.)',
  input: deletePathInput,
  risk: 'destructive',
  available: always,
  execute: (a) =>
    Promise.resolve({
      path: a.path,
      deleted: false,
      wouldDelete: a.path,
      note: 'demo executor: nothing was deleted',
    }),
});

/** The builtin descriptors, in listing order; `tavilyUrl` is the search API base URL. */
export function builtinTools(tavilyUrl: string): ToolDescriptor[] {
  return [echo, note, webSearch(tavilyUrl), deletePath];
}
