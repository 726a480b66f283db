// A-MEM notes of vault documents, made deterministically: keywords are the document's most
// distinctive terms (the prose tokenizer's terms of its title and body, weighed by the vault
// postings' document frequencies: no second full-text engine), tags its frontmatter tags,
// context one generated line. And how a note absorbs a related newcomer's (bounded sizes).
import { proseTokenizer, stem, STOPWORDS } from '../search/index.js';
import type { Store, VaultNote } from '../store/index.js';

/** A note's own keywords; the most it holds after absorbing; tags at most. */
export const OWN_KEYWORDS = 8;
export const MAX_KEYWORDS = 12;
export const MAX_TAGS = 12;
/** Keywords a note takes from one newcomer at most; related titles its context names. */
export const ABSORB_KEYWORDS = 2;
export const CONTEXT_RELATED = 3;
/** Characters of a document's body read for its keywords. */
const KEYWORD_CHARS = 20_000;
const RELATED = ' — related: ';

export type NoteFields = Pick<VaultNote, 'keywords' | 'tags' | 'context'>;

export interface NoteSource {
  id: number;
  title: string;
  contentType: string;
  content: string;
  frontmatter: Readonly<Record<string, unknown>>;
}

/** The stem two keywords are compared by. */
export const keywordStem = (word: string): string => stem(word.toLowerCase());

/** The frontmatter's `tags` (a list, or a comma-separated string), trimmed, distinct. */
export function frontmatterTags(frontmatter: Readonly<Record<string, unknown>>): string[] {
  const raw = frontmatter['tags'];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const tags = list
    .filter((t): t is string | number => typeof t === 'string' || typeof t === 'number')
    .map((t) => String(t).trim())
    .filter((t) => t !== '');
  return [...new Set(tags)].slice(0, MAX_TAGS);
}

/** Term → frequency (the title counted twice) and the surface word seen most for it. */
function termsOf(title: string, body: string): Map<string, { tf: number; word: string }> {
  const seen = new Map<string, { tf: number; words: Map<string, number> }>();
  const add = (text: string, weight: number): void => {
    for (const t of proseTokenizer.tokenize(text)) {
      if (t.word.length < 3 || STOPWORDS.has(t.word) || /^\d+$/.test(t.word)) continue;
      const e = seen.get(t.term) ?? { tf: 0, words: new Map<string, number>() };
      e.tf += weight;
      e.words.set(t.word, (e.words.get(t.word) ?? 0) + 1);
      seen.set(t.term, e);
    }
  };
  add(title, 2);
  add(body.slice(0, KEYWORD_CHARS), 1);
  const out = new Map<string, { tf: number; word: string }>();
  for (const [term, e] of seen) {
    const best = [...e.words].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    out.set(term, { tf: e.tf, word: best?.[0] ?? term });
  }
  return out;
}

const bodyOf = (content: string): string => content.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');

/** The context line: what the document is and its leading keywords. */
export const ownContext = (src: NoteSource, keywords: readonly string[]): string =>
  `${src.contentType} "${src.title}" about ${keywords.slice(0, 4).join(', ') || '(no keywords)'}`;

/** A document's own note: tf × idf over the vault postings' document frequencies. */
export async function noteOf(store: Store, src: NoteSource): Promise<NoteFields> {
  const terms = termsOf(src.title, bodyOf(src.content));
  const { df, fragments } = await store.vaultIndex.termStats([...terms.keys()]);
  const scored = [...terms].map(([term, e]) => ({
    word: e.word,
    score: e.tf * Math.log(1 + (fragments + 1) / ((df.get(term) ?? 0) + 1)),
  }));
  scored.sort((a, b) => b.score - a.score || a.word.localeCompare(b.word));
  const keywords = scored.slice(0, OWN_KEYWORDS).map((s) => s.word);
  return { keywords, tags: frontmatterTags(src.frontmatter), context: ownContext(src, keywords) };
}

/** Splits a context line into its own part and the related titles it names. */
function splitContext(context: string): { own: string; related: string[] } {
  const at = context.indexOf(RELATED);
  if (at < 0) return { own: context, related: [] };
  const related = context.slice(at + RELATED.length).split('; ');
  return { own: context.slice(0, at), related: related.filter((r) => r !== '') };
}

const withRelated = (own: string, related: readonly string[]): string =>
  related.length === 0 ? own : `${own}${RELATED}${related.join('; ')}`;

/** A rewritten document's note: its new own fields, keeping the related titles it had. */
export function rewritten(previous: NoteFields | undefined, own: NoteFields): NoteFields {
  if (previous === undefined) return own;
  return { ...own, context: withRelated(own.context, splitContext(previous.context).related) };
}

/**
 * `note` absorbing a related newcomer: up to ABSORB_KEYWORDS of its keywords the note lacks
 * (while under MAX_KEYWORDS), its tags (under MAX_TAGS), and its title first among the
 * context's related titles (at most CONTEXT_RELATED).
 */
export function absorb(note: NoteFields, newcomer: NoteFields, title: string): NoteFields {
  const have = new Set(note.keywords.map(keywordStem));
  const room = Math.max(0, Math.min(ABSORB_KEYWORDS, MAX_KEYWORDS - note.keywords.length));
  const taken = newcomer.keywords.filter((k) => !have.has(keywordStem(k))).slice(0, room);
  const tags = [...note.tags, ...newcomer.tags.filter((t) => !note.tags.includes(t))];
  const { own, related } = splitContext(note.context);
  const quoted = `"${title}"`;
  const titles = [quoted, ...related.filter((r) => r !== quoted)].slice(0, CONTEXT_RELATED);
  return {
    keywords: [...note.keywords, ...taken],
    tags: tags.slice(0, Math.max(MAX_TAGS, note.tags.length)),
    context: withRelated(own, titles),
  };
}

/** Whether two notes differ in keywords, tags or context. */
export const sameNote = (a: NoteFields, b: NoteFields): boolean =>
  a.context === b.context &&
  JSON.stringify(a.keywords) === JSON.stringify(b.keywords) &&
  JSON.stringify(a.tags) === JSON.stringify(b.tags);
