// Search results: title, kind, snippet, tags, score with its basis and the per-channel ranks,
// and the degraded notice when vector or hybrid fell back to full text.
import type { SearchHit, SearchResult } from './use-memory.js';

const rank = (r: number | null): string => (r === null ? '–' : `#${r}`);

function HitRow({ hit, onOpen }: { hit: SearchHit; onOpen: (id: string) => void }) {
  return (
    <li className="hit" data-memory-id={hit.id}>
      <button type="button" className="hit-title" onClick={() => onOpen(hit.id)}>
        {hit.title}
      </button>
      <span className="tag">{hit.kind}</span>
      <p className="snippet">{hit.snippet}</p>
      <p className="hit-meta muted">
        score <span className="score">{hit.score.toPrecision(3)}</span> ({hit.scoreBasis}) · fts{' '}
        {rank(hit.ranks.fts)} · vector {rank(hit.ranks.vector)}
        {hit.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </p>
    </li>
  );
}

export function Results({ reply, onOpen }: { reply: SearchResult; onOpen: (id: string) => void }) {
  return (
    <section aria-label="Results">
      {reply.degraded === true && (
        <p className="notice degraded" role="status">
          Degraded: {reply.degradedReason ?? 'answered with full-text search only'}
        </p>
      )}
      {reply.results.length === 0 ? (
        <p className="empty">
          Nothing found in this scope. Try other words, another mode, or a team / agent scope.
        </p>
      ) : (
        <ol className="hits">
          {reply.results.map((h) => (
            <HitRow key={h.id} hit={h} onOpen={onOpen} />
          ))}
        </ol>
      )}
    </section>
  );
}
