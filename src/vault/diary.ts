// The agent diary (diary_write, diary_read): entries are system documents of the internal
// `_clawmem` collection at `diary/<agent>/<YYYY-MM-DD>T<HH-MM-SS-mmm>Z-<topic>.md` (ms paths, a
// numeric suffix within one ms, never an overwrite), saved scrubbed through saveInternal.
import { z } from 'zod';

import type { Scrubber } from '../memory/index.js';
import { INTERNAL_COLLECTION, type Store } from '../store/index.js';
import { saveInternal, type SavedInternal, slug } from './internal.js';
import { int, text } from './tool-schemas.js';

const vault = text('vault', 100).optional();

export const diaryWriteInput = z.object({
  entry: text('entry', 100_000),
  topic: text('topic', 100).default('general'),
  agent: text('agent', 100).default('agent'),
  vault,
});

export const diaryReadInput = z.object({
  last_n: int('last_n', 1, 100).default(10),
  agent: text('agent', 100).optional(),
  vault,
});

export interface DiaryEntry {
  docid: string;
  path: string;
  agent: string;
  topic: string;
  date: string;
  entry: string;
}

/** `2026-05-04T03:02:01.123Z` → `2026-05-04T03-02-01-123Z`. */
const stampOf = (at: number): string => new Date(at).toISOString().replace(/[:.]/g, '-');

/** Writes one diary entry. @throws VaultInputError on empty text; the scrubber's error. */
export async function writeDiary(
  deps: { store: Store; scrubber: Scrubber; now: () => number },
  vaultName: string,
  a: { entry: string; topic: string; agent: string },
): Promise<SavedInternal & { date: string }> {
  const at = deps.now();
  const date = new Date(at).toISOString();
  const saved = await saveInternal(
    deps.store,
    deps.scrubber,
    vaultName,
    {
      kind: 'diary',
      title: `Diary: ${a.topic.trim()}`,
      content: a.entry,
      frontmatter: { topic: a.topic.trim(), agent: a.agent.trim(), date },
      base: `diary/${slug(a.agent)}/${stampOf(at)}-${slug(a.topic)}`,
    },
    () => at,
  );
  return { ...saved, date };
}

const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);

/** The body after the frontmatter and the `# title` line. */
const bodyOf = (content: string): string =>
  content
    .replace(/^---\n[\s\S]*?\n---\n/, '')
    .replace(/^# .*\n/, '')
    .trim();

/**
 * The newest `lastN` diary entries (optionally of one agent), newest first, with how many
 * entries the vault holds in all and for that agent (so an empty answer can say which).
 */
export async function readDiary(
  store: Store,
  vaultName: string,
  a: { last_n: number; agent?: string | undefined },
): Promise<{ entries: DiaryEntry[]; total: number; matching: number }> {
  const all = (
    await store.vaultIndex.listDocuments(vaultName, { collections: [INTERNAL_COLLECTION] })
  ).filter((d) => d.path.startsWith('diary/'));
  const prefix = a.agent === undefined ? 'diary/' : `diary/${slug(a.agent)}/`;
  const matching = all
    .filter((d) => d.path.startsWith(prefix))
    .sort((x, y) => y.createdAt - x.createdAt || y.id - x.id);
  const picked = matching.slice(0, a.last_n);
  const rows = await store.vaultIndex.documentsById(
    vaultName,
    picked.map((d) => d.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const entries = picked.flatMap((d) => {
    const r = byId.get(d.id);
    if (r === undefined) return [];
    const fm = r.frontmatter;
    return [
      {
        ...{ docid: r.docid, path: r.path, agent: str(fm.agent, 'agent') },
        ...{ topic: str(fm.topic, 'general'), date: str(fm.date, '') },
        entry: bodyOf(r.content),
      },
    ];
  });
  return { entries, total: all.length, matching: matching.length };
}
