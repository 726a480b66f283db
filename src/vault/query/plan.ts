// query_plan's decomposition: a multi-topic question split into clauses, each searched on its
// own. Deterministic: splits on sentence and list boundaries and on coordinating phrases that
// join two complete asks ("… and also …", "…; …", "as well as"), never inside a short noun
// phrase ("salt and pepper" stays one clause), then drops clauses with no content words.
import { queryTerms } from '../../search/index.js';

/** Clauses a plan holds at most. */
export const MAX_CLAUSES = 5;
/** A clause needs this many distinct content terms to stand on its own. */
const MIN_TERMS = 2;

const HARD =
  /\s*(?:[;?\n]|\.\s+(?=[A-Z])|\band also\b|\bas well as\b|\bplus\b|\balso\b|\bthen\b)\s*/i;
const SOFT = /\s*(?:,\s*and\b|\band\b|,)\s*/i;

const hasContent = (clause: string): boolean => queryTerms(clause).length >= MIN_TERMS;

/**
 * The clauses of `query`: one when it is a single topic. Soft separators ("and", commas) split
 * only when every side keeps at least two content terms.
 */
export function planClauses(query: string): string[] {
  const hard = query
    .split(HARD)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const out: string[] = [];
  for (const part of hard) {
    const soft = part
      .split(SOFT)
      .map((c) => c.trim())
      .filter((c) => c !== '');
    if (soft.length > 1 && soft.every(hasContent)) out.push(...soft);
    else out.push(part);
  }
  const kept = out.filter(hasContent);
  const distinct = [...new Map(kept.map((c) => [queryTerms(c).sort().join(' '), c])).values()];
  if (distinct.length <= 1) return [query.trim()];
  return distinct.slice(0, MAX_CLAUSES);
}
