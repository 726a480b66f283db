// cairn-vault's document-access tools: get, multi_get, find_similar, timeline, session_log.
// get and multi_get record the reads of what they return (access counts and co-activation, keyed
// by this connection: one server instance is one session).
import { randomUUID } from 'node:crypto';

import type { Core } from '../../core/index.js';
import {
  findSimilar,
  findSimilarInput,
  getDocument,
  getInput,
  multiGet,
  multiGetInput,
  recordReads,
  sessionLog,
  sessionLogInput,
  timelineInput,
  timelineOf,
} from '../../vault/index.js';
import { searchText } from './text.js';
import { READ_ONLY, type VaultTool, vaultTool } from './vault-tool.js';

export function documentTools(core: Core): VaultTool[] {
  const v = core.vault;
  const session = randomUUID();
  const access = (vault: string, ids: readonly number[]) =>
    recordReads(v.store, vault, ids, session, v.deps.now());
  return [
    vaultTool({
      name: 'get',
      description:
        'One document by path or docid (#abc123): its text from `fromLine` for `maxLines` lines, with line numbers when `lineNumbers`.',
      input: getInput,
      annotations: { title: 'Get a document', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const d = await getDocument(v.store, vault, a.file, {
          fromLine: a.fromLine,
          maxLines: a.maxLines,
          lineNumbers: a.lineNumbers,
        });
        await access(vault, [d.document.id]);
        const head = `#${d.document.docid} ${d.document.path} — ${d.document.title} (lines ${d.fromLine}-${d.toLine} of ${d.totalLines})`;
        return { text: `${head}\n${d.text}`, data: { vault, ...d } };
      },
    }),
    vaultTool({
      name: 'multi_get',
      description:
        'Several documents by glob pattern or comma-separated paths, within `maxBytes` (default 10240) in total; what was cut or left out is reported.',
      input: multiGetInput,
      annotations: { title: 'Get documents', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await multiGet(v.store, vault, a.pattern, {
          maxLines: a.maxLines,
          maxBytes: a.maxBytes,
          lineNumbers: a.lineNumbers,
        });
        await access(
          vault,
          r.documents.map((d) => d.document.id),
        );
        const lines = r.documents.flatMap((d) => [
          `## #${d.document.docid} ${d.document.path}${d.cut === null ? '' : ` (cut: ${d.cut})`}`,
          d.text,
        ]);
        const tail = [
          ...(r.omitted.length === 0
            ? []
            : [
                `${r.omitted.length} more document(s) did not fit maxBytes ${a.maxBytes}: ${r.omitted.map((o) => o.path).join(', ')}`,
              ]),
          ...(r.missing.length === 0 ? [] : [`not found: ${r.missing.join(', ')}`]),
        ];
        const head = `${r.documents.length} document(s), ${r.bytes} bytes`;
        return { text: [head, ...lines, ...tail].join('\n'), data: { vault, ...r } };
      },
    }),
    vaultTool({
      name: 'find_similar',
      description:
        'Nearest documents to a reference document by raw cosine. Internal (_clawmem) documents are included when includeInternal or when the reference is itself internal.',
      input: findSimilarInput,
      annotations: { title: 'Similar documents', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await findSimilar(v.deps, vault, a.file, a.limit, a.includeInternal);
        return {
          text: searchText({ query: `similar to ${r.reference.path}`, ...r }),
          data: { vault, ...r },
        };
      },
    }),
    vaultTool({
      name: 'timeline',
      description:
        'Documents created or modified before and after one (by authored date, else modified time).',
      input: timelineInput,
      annotations: { title: 'Timeline', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await timelineOf(v.deps, vault, a.docid, {
          before: a.before,
          after: a.after,
          sameCollection: a.same_collection,
        });
        const line = (e: { at: string; docid: string; path: string }, mark = ' ') =>
          `${mark} ${e.at} ${e.docid} ${e.path}`;
        const text = [
          ...r.before.map((e) => line(e)),
          line(r.reference, '>'),
          ...r.after.map((e) => line(e)),
        ].join('\n');
        return { text, data: { vault, ...r } };
      },
    }),
    vaultTool({
      name: 'session_log',
      description:
        'Recent sessions and handoffs, newest first, each with the documents changed since the session before it.',
      input: sessionLogInput,
      annotations: { title: 'Session log', ...READ_ONLY },
      handler: async (a) => {
        const vault = await v.vault(a.vault);
        const r = await sessionLog(v.deps, vault, a.limit);
        const text =
          r.sessions.length === 0
            ? `No session or handoff documents in vault ${vault}.`
            : r.sessions
                .map(
                  (s) =>
                    `${s.at} ${s.docid} ${s.path} — ${s.title}; ${s.changesTotal} document(s) changed`,
                )
                .join('\n');
        return { text, data: { vault, ...r } };
      },
    }),
  ];
}
