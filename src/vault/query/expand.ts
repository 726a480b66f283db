// Query expansion, the first model stage of the query pipeline, as an interface with a
// deterministic default: pseudo-relevance feedback (the terms that weigh most in the first
// BM25 pass's top fragments, by tf·idf, that the query does not already hold). A provider
// (an LLM behind an OpenAI-compatible or Ollama endpoint) implements the same interface.
import { queryTerms, STOPWORDS, tokenize } from '../../search/index.js';

/** One expanded query and its weight in the fusion (the original query weighs more). */
export interface ExpandedQuery {
  readonly text: string;
  readonly weight: number;
  readonly source: 'original' | 'prf' | 'provider';
}

/** What expansion sees: the query, the first pass's top texts, and document frequencies. */
export interface ExpansionInput {
  readonly query: string;
  /** Domain hint (the query tool's `intent`): a provider steers with it; PRF adds its terms. */
  readonly intent?: string | undefined;
  /** Texts of the first BM25 pass's best fragments, best first. */
  readonly feedback: readonly string[];
  /** Fragments holding a term, and how many fragments there are. */
  readonly df: (term: string) => number;
  readonly documents: number;
}

export interface Expansion {
  readonly queries: readonly ExpandedQuery[];
  /** The terms added, best first (empty when feedback had nothing to add). */
  readonly terms: readonly string[];
  /** Which expander ran: 'prf' or a provider's name. */
  readonly stage: string;
  /**
   * What `stages.expansion` says, when the expander says more than `<stage>: <n> terms` (a
   * provider's query count, a fallback and why).
   */
  readonly report?: string;
}

export interface QueryExpander {
  readonly name: string;
  expand(input: ExpansionInput): Promise<Expansion>;
}

export interface PrfOptions {
  /** Feedback texts read (default 5). */
  readonly depth?: number;
  /** Terms added (default 4). */
  readonly terms?: number;
  /** Weight of the expanded query against the original's 1 (default 0.5). */
  readonly weight?: number;
}

/** No expansion (CAIRN_VAULT_EXPANSION=none): the original query alone. */
export function createNoExpander(): QueryExpander {
  return {
    name: 'none',
    expand: (input) =>
      Promise.resolve({
        queries: [{ text: input.query, weight: 1, source: 'original' }],
        terms: [],
        stage: 'none',
        report: 'none: disabled (CAIRN_VAULT_EXPANSION=none)',
      }),
  };
}

/** The deterministic expander: pseudo-relevance feedback over the first pass. */
export function createPrfExpander(options: PrfOptions = {}): QueryExpander {
  const depth = options.depth ?? 5;
  const take = options.terms ?? 4;
  const weight = options.weight ?? 0.5;
  return {
    name: 'prf',
    expand: (input) => {
      const original: ExpandedQuery = { text: input.query, weight: 1, source: 'original' };
      const have = new Set(queryTerms(`${input.query} ${input.intent ?? ''}`));
      const weights = new Map<string, number>();
      const surface = new Map<string, string>();
      const seenIn = new Map<string, number>();
      for (const [rank, text] of input.feedback.slice(0, depth).entries()) {
        const tokens = tokenize(text);
        if (tokens.length === 0) continue;
        const tf = new Map<string, number>();
        for (const t of tokens) {
          if (t.word.length < 3 || STOPWORDS.has(t.word) || /^\d+$/.test(t.word)) continue;
          if (have.has(t.term)) continue;
          tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
          if (!surface.has(t.term)) surface.set(t.term, t.word);
        }
        // Higher-ranked feedback counts more; idf keeps corpus-wide words out.
        const rankWeight = 1 / (1 + rank);
        for (const [term, n] of tf) {
          seenIn.set(term, (seenIn.get(term) ?? 0) + 1);
          const df = Math.max(1, input.df(term));
          const idf = Math.log(1 + (input.documents - df + 0.5) / (df + 0.5));
          weights.set(term, (weights.get(term) ?? 0) + rankWeight * (n / tokens.length) * idf);
        }
      }
      // With three or more feedback texts, a term seen in only one is as likely noise as signal.
      const used = Math.min(depth, input.feedback.length);
      const terms = [...weights.entries()]
        .filter(([t, w]) => w > 0 && (used < 3 || (seenIn.get(t) ?? 0) >= 2))
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, take)
        .map(([t]) => t);
      const intentWords = input.intent === undefined ? '' : ` ${input.intent}`;
      const words = terms.map((t) => surface.get(t) ?? t).join(' ');
      const queries =
        terms.length === 0 && intentWords === ''
          ? [original]
          : [
              original,
              {
                text: `${input.query}${intentWords} ${words}`.trim(),
                weight,
                source: 'prf' as const,
              },
            ];
      return Promise.resolve({ queries, terms, stage: 'prf' });
    },
  };
}
