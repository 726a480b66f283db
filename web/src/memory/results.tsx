// Search results: title, kind, snippet, tags, score with its basis, the per-channel ranks and
// (vector / hybrid) the cosine similarity, and the degraded notice when vector or hybrid fell
// back to full text. Hits below the server's relevance cut-off (`weak`) stay hidden behind a
// "N weaker matches hidden" toggle.
import { useState } from 'react';

import type { SearchHit, SearchResult } from './use-memory.js';

const rank = (r: number | null): string => (r === null ? '–' : `#${r}`);

function HitRow({ hit, onOpen }: { hit: SearchHit; onOpen: (id: string) => void }) {
  return (
    <li className={hit.weak === true ? 'hit weak' : 'hit'} data-memory-id={hit.id}>
      <button type="button" className="hit-title" onClick={() => onOpen(hit.id)}>
        {hit.title}
      </button>
      <span className="tag">{hit.kind}</span>
      {hit.weak === true && <span className="tag">weaker match</span>}
      <p className="snippet">{hit.snippet}</p>
      <p className="hit-meta muted">
        score <span className="score">{hit.score.toPrecision(3)}</span> ({hit.scoreBasis}) · fts{' '}
        {rank(hit.ranks.fts)} · vector {rank(hit.ranks.vector)}
        {typeof hit.cosine === 'number' && ` · cosine ${hit.cosine.toFixed(2)}`}
        {hit.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </p>
    </li>
  );
}

/** "3 weaker matches hidden" and the button that shows (or hides) them. */
function CutoffToggle(props: { reply: SearchResult; shown: boolean; onToggle(): void }) {
  const cut = props.reply.cutoff;
  if (cut === undefined || cut.hidden === 0) return null;
  const n = `${cut.hidden} weaker match${cut.hidden === 1 ? '' : 'es'}`;
  const rule =
    `Weaker: a full-text match scoring below ${cut.fusedRatio * 100}% of the best, or a ` +
    `vector-only match below ${cut.cosineRatio * 100}% of the best cosine.`;
  return (
    <p className="muted cutoff" title={rule}>
      {props.shown ? `${n} shown. ` : `${n} hidden. `}
      <button type="button" className="small" aria-expanded={props.shown} onClick={props.onToggle}>
        {props.shown ? 'Hide them' : 'Show them'}
      </button>
    </p>
  );
}

export function Results({ reply, onOpen }: { reply: SearchResult; onOpen: (id: string) => void }) {
  // Remembers the result the weak hits were shown for: a new search hides them again.
  const [shownFor, setShownFor] = useState<SearchResult>();
  const shown = shownFor === reply;
  const hits = shown ? reply.results : reply.results.filter((h) => h.weak !== true);
  return (
    <section aria-label="Results">
      {reply.degraded === true && (
        <p className="notice degraded" role="status">
          Degraded: {reply.degradedReason ?? 'answered with full-text search only'}
        </p>
      )}
      {hits.length === 0 && (
        <p className="empty">
          {reply.results.length === 0
            ? 'Nothing found in this scope. Try other words, another mode, or a team / agent scope.'
            : 'No strong match in this scope; only weaker ones.'}
        </p>
      )}
      {hits.length > 0 && (
        <ol className="hits">
          {hits.map((h) => (
            <HitRow key={h.id} hit={h} onOpen={onOpen} />
          ))}
        </ol>
      )}
      <CutoffToggle
        reply={reply}
        shown={shown}
        onToggle={() => setShownFor(shown ? undefined : reply)}
      />
    </section>
  );
}
