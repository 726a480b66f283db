// Parses one markdown document of a vault: YAML frontmatter (the `yaml` package; a malformed
// block gives empty frontmatter, never an error), title (frontmatter title, else the first
// heading outside code, else the file name), content type, authored date, confidence and
// quality, line and word counts, and the fragments. Pure: no file system, no store.
import { parse as parseYaml } from 'yaml';

import type { VaultFragmentInput } from '../store/index.js';
import { contentTypeOf } from './content-type.js';
import { headingOf, splitFragments } from './fragments.js';
import type { ContentType } from './scoring/index.js';

export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>;
  /** Whether a frontmatter block was present but not a YAML mapping. */
  frontmatterError: boolean;
  title: string;
  contentType: ContentType;
  /** The frontmatter date (date, created or authored), ms; null without a valid one. */
  authoredAt: number | null;
  /** Frontmatter `confidence`, a number in [0, 1]; null when absent or out of range. */
  confidence: number | null;
  /** Frontmatter `quality` (or `quality_score`), a number in [0, 1]; null otherwise. */
  quality: number | null;
  lines: number;
  words: number;
  fragments: VaultFragmentInput[];
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/** The frontmatter block (without its fences) and the line the body starts on (0-based). */
function splitFrontmatter(text: string): { yaml: string | undefined; bodyLine: number } {
  if (!OPEN.test(text)) return { yaml: undefined, bodyLine: 0 };
  const lines = text.split(/\r?\n/);
  const end = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
  if (end < 0) return { yaml: undefined, bodyLine: 0 };
  return { yaml: lines.slice(1, end).join('\n'), bodyLine: end + 1 };
}

/** A JSON-safe copy of a parsed YAML mapping (dates and odd scalars become strings). */
function jsonSafe(value: unknown): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

function parseFrontmatter(yaml: string | undefined): {
  data: Record<string, unknown>;
  error: boolean;
} {
  if (yaml === undefined || yaml.trim() === '') return { data: {}, error: false };
  try {
    const data = jsonSafe(parseYaml(yaml, { maxAliasCount: 100 }));
    return data === undefined ? { data: {}, error: true } : { data, error: false };
  } catch {
    return { data: {}, error: true };
  }
}

function dateOf(fm: Record<string, unknown>): number | null {
  for (const key of ['date', 'created', 'authored', 'created_at']) {
    const v = fm[key];
    if (typeof v === 'string' || typeof v === 'number') {
      const t = typeof v === 'number' ? v : Date.parse(v);
      if (Number.isFinite(t)) return t;
    }
  }
  return null;
}

/** The first ATX heading outside code fences. */
function firstHeading(body: string): string | undefined {
  let fenced = false;
  for (const line of body.split(/\r?\n/)) {
    if (/^ {0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const h = headingOf(line);
      if (h !== undefined && h.text !== '') return h.text;
    }
  }
  return undefined;
}

/** The file name without its directory and its .md / .markdown extension. */
export function fileTitle(path: string): string {
  const name = path.split('/').at(-1) ?? path;
  return name.replace(/\.(md|markdown|mdx)$/i, '') || name;
}

/** A frontmatter number in [0, 1] (a numeric string counts), else null. */
function unitOf(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}

/** Parses `text`, the document at `path` (relative to its content root, '/'-separated). */
export function parseMarkdown(text: string, path: string): ParsedMarkdown {
  const { yaml, bodyLine } = splitFrontmatter(text);
  const { data, error } = parseFrontmatter(yaml);
  const body = text.split(/\r?\n/).slice(bodyLine).join('\n');
  const fmTitle = typeof data.title === 'string' ? data.title.trim() : '';
  return {
    frontmatter: data,
    frontmatterError: error,
    title: fmTitle || firstHeading(body) || fileTitle(path),
    contentType: contentTypeOf(data.type, path),
    authoredAt: dateOf(data),
    confidence: unitOf(data.confidence),
    quality: unitOf(data.quality ?? data.quality_score),
    lines: text === '' ? 0 : text.split(/\r?\n/).length,
    words: text.split(/\s+/).filter((w) => w !== '').length,
    fragments: splitFragments(body, bodyLine + 1),
  };
}
