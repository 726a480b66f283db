// A vault document's content type: frontmatter `type` when it is one of the known types, else
// inferred from a directory of its path (handoffs/, decisions/, research/ …), else note. The
// list is scoring's CONTENT_TYPES (recency half-lives by type).
import { CONTENT_TYPES, type ContentType } from './scoring/index.js';

const KNOWN = new Set<string>(CONTENT_TYPES);

/** Directory names (singular, plural, a few synonyms) → type. */
const DIRECTORIES: Readonly<Record<string, ContentType>> = {
  ...Object.fromEntries(
    CONTENT_TYPES.flatMap((t) => [
      [t, t],
      [`${t}s`, t],
    ]),
  ),
  research: 'research',
  sessions: 'session',
  diary: 'session',
  journal: 'session',
  adr: 'decision',
  adrs: 'decision',
  refs: 'reference',
  prefs: 'preference',
};

/** The type of a document from its frontmatter `type` and its path (relative, '/'-separated). */
export function contentTypeOf(frontmatterType: unknown, path: string): ContentType {
  if (typeof frontmatterType === 'string') {
    const t = frontmatterType.trim().toLowerCase();
    if (KNOWN.has(t)) return t as ContentType;
  }
  const dirs = path.split('/').slice(0, -1).reverse();
  for (const dir of dirs) {
    const t = DIRECTORIES[dir.toLowerCase()];
    if (t !== undefined) return t;
  }
  return 'note';
}
