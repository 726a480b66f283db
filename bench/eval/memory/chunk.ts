// How one LoCoMo turn becomes a memory fact (title + content). The eval compares a few chunk
// styles; the headline uses `dated`, the text the issue names: `Speaker (session date): text`.
import type { Turn } from './data.js';

export const CHUNK_STYLES = [
  'dated',
  'dated-title',
  'dated-caption',
  'dated-context',
  'dated-reply',
  'dated-reply-short',
] as const;
export type ChunkStyle = (typeof CHUNK_STYLES)[number];

/** The style the headline figures use. */
export const FINAL_STYLE: ChunkStyle = 'dated-reply';

export const CHUNK_DESCRIPTIONS: Record<ChunkStyle, string> = {
  dated: 'title `Speaker (date)`, content the turn text',
  'dated-title': 'title `Speaker (date): text`, content the turn text',
  'dated-caption': '`dated` + shared-image caption in the content',
  'dated-context': '`dated-caption` + the previous turn (always) in the content',
  'dated-reply': '`dated-caption` + the previous turn when it asked a question',
  'dated-reply-short': '`dated-reply`, previous turn cut to 100 characters',
};

export interface FactText {
  title: string;
  content: string;
}

const CONTEXT_CHARS = 200;

/** `Speaker (date)`: the prefix that says who spoke and when. */
const header = (t: Turn): string => `${t.speaker} (${t.date})`;

const withCaption = (t: Turn): string =>
  t.caption === undefined ? t.text : `${t.text} [shares ${t.caption}]`;

const context = (previous: Turn | undefined, chars: number): string =>
  previous === undefined
    ? ''
    : `\n(replying to ${previous.speaker}: ${withCaption(previous).slice(0, chars)})`;

/**
 * The fact saved for `turn` (`previous` is the turn before it in the same session, if any):
 * - `dated`: title `Speaker (date)`, content the text (the title is indexed and embedded too);
 * - `dated-title`: the whole `Speaker (date): text` as the title, content the text;
 * - `dated-caption`: `dated`, with a shared image's caption appended to the content;
 * - `dated-context`: `dated-caption`, with the previous turn (what it answers) in the content.
 */
export function factText(style: ChunkStyle, turn: Turn, previous?: Turn): FactText {
  switch (style) {
    case 'dated':
      return { title: header(turn), content: turn.text };
    case 'dated-title':
      return { title: `${header(turn)}: ${turn.text}`, content: turn.text };
    case 'dated-caption':
      return { title: header(turn), content: withCaption(turn) };
    case 'dated-context':
      return {
        title: header(turn),
        content: `${withCaption(turn)}${context(previous, CONTEXT_CHARS)}`,
      };
    case 'dated-reply': {
      const asked = previous !== undefined && previous.text.includes('?') ? previous : undefined;
      return {
        title: header(turn),
        content: `${withCaption(turn)}${context(asked, CONTEXT_CHARS)}`,
      };
    }
    case 'dated-reply-short': {
      const asked = previous !== undefined && previous.text.includes('?') ? previous : undefined;
      return { title: header(turn), content: `${withCaption(turn)}${context(asked, 100)}` };
    }
  }
}
