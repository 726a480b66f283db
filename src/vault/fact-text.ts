// The facts of a vault document's content: the extractor run over the text without its leading
// frontmatter block. Shared by the fact writes and the causal-link derivation (which re-reads
// other documents' facts to number them); pure.
import { type ExtractedFact, extractFacts } from '../graph/extract/index.js';

/** The text facts are read from: the content without its leading frontmatter block. */
export function factText(content: string): string {
  return content.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
}

/** The numbered facts of a document's content. */
export const documentFacts = (content: string): ExtractedFact[] => extractFacts(factText(content));
