// cairn-vault's profile tool: the default vault's user profile (static facts + dynamic context),
// cached and rebuilt by the domain. Thin: run getProfile, render it section by section.
import type { Core } from '../../core/index.js';
import { isoTime } from '../../shared/index.js';
import {
  getProfile,
  type Listed,
  type ProfileAnswer,
  type ProfileDocument,
  type ProfileFact,
  profileInput,
} from '../../vault/index.js';
import { type VaultTool, vaultTool, IDEMPOTENT_WRITE } from './vault-tool.js';

const day = (ms: number): string => isoTime(ms).slice(0, 10);

function factLine(f: ProfileFact): string {
  const source = f.source === null ? 'unattributed' : `${f.source.collection}/${f.source.path}`;
  return `- ${f.subject} —${f.predicate}→ ${f.object} [evidence ×${f.evidenceCount}; newest ${source} ${day(f.at)}]`;
}

function documentLine(d: ProfileDocument): string {
  const status = d.status === null ? '' : ` [${d.status}]`;
  return `- ${isoTime(d.at)} ${d.type}${status} ${d.collection}/${d.path} "${d.title}" (${d.docid})`;
}

/** A section: its heading with the count kept of the total, its lines, or why it is empty. */
function section<T>(title: string, l: Listed<T>, line: (x: T) => string, none: string): string[] {
  const count = l.truncated ? `${l.items.length} of ${l.total}, truncated` : `${l.total}`;
  return [
    `\n## ${title} (${count})`,
    ...(l.items.length === 0 ? [`(${none})`] : l.items.map(line)),
  ];
}

export function profileText(r: ProfileAnswer): string {
  const s = r.static;
  const d = r.dynamic;
  const since = `since ${day(d.window.startedAt)}`;
  return [
    r.message,
    ...(s.empty === null ? [] : [s.empty]),
    ...(d.empty === null ? [] : [d.empty]),
    ...section('Static facts, most evidence first', s.facts, factLine, 'no durable facts'),
    ...section('Preferences and decisions', s.documents, documentLine, 'none'),
    ...section(`Recent activity, last ${d.window.days} days`, d.recent, documentLine, since),
    ...section('Open items', d.openItems, documentLine, 'none open'),
  ].join('\n');
}

export function profileTool(core: Core): VaultTool {
  const v = core.vault;
  return vaultTool({
    name: 'profile',
    description:
      'Get or rebuild the user profile (static facts + dynamic context) of the default vault. Static: durable facts of its knowledge graph (adopted, decided, depends_on, owns, part_of, replaced, uses), most evidence first with the newest source, and its preference and decision documents. Dynamic: session, diary, handoff and progress documents of the last 14 days, and open items (frontmatter status open, in_progress, blocked, todo). Cached: a get serves the cached profile while its inputs are unchanged and rebuilds it when they changed (stale: true); rebuild: true forces a rebuild.',
    input: profileInput,
    annotations: {
      title: 'Get or rebuild the user profile',
      ...IDEMPOTENT_WRITE,
    },
    handler: async (a) => {
      const vault = await v.vault(undefined);
      const r = await getProfile(v.store, vault, { rebuild: a.rebuild, now: v.deps.now() });
      return { text: profileText(r), data: { ...r } };
    },
  });
}
