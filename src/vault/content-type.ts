// A vault document's content type: frontmatter `type` when it is one of the known types, else
// inferred from a directory of its path (handoffs/, decisions/, research/ …), else note. The
// list matches CONTENT_TYPES of src/vault/scoring/recency.ts (recency half-lives by type).

export const VAULT_CONTENT_TYPES = [
  'decision',
  'handoff',
  'progress',
  'observation',
  'session',
  'note',
  'research',
  'deduction',
  'reference',
  'preference',
] as const;
export type VaultContentType = (typeof VAULT_CONTENT_TYPES)[number];

const KNOWN = new Set<string>(VAULT_CONTENT_TYPES);

/** Directory names (singular, plural, a few synonyms) → type. */
const DIRECTORIES: Readonly<Record<string, VaultContentType>> = {
  ...Object.fromEntries(
    VAULT_CONTENT_TYPES.flatMap((t) => [
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
export function contentTypeOf(frontmatterType: unknown, path: string): VaultContentType {
  if (typeof frontmatterType === 'string') {
    const t = frontmatterType.trim().toLowerCase();
    if (KNOWN.has(t)) return t as VaultContentType;
  }
  const dirs = path.split('/').slice(0, -1).reverse();
  for (const dir of dirs) {
    const t = DIRECTORIES[dir.toLowerCase()];
    if (t !== undefined) return t;
  }
  return 'note';
}
