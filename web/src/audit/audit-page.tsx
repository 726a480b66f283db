// The audit page: the broker's append-only log, newest first, filtered and paged by cursor.
// Read-only; one row per pipeline step, rows of one call share a call id. The pager's buttons
// stay focusable at either end (aria-disabled), so paging with the keyboard never drops focus.
import { AuditFilters } from './audit-filters.js';
import { type AuditEntry, useAudit } from './use-audit.js';

function detailText(detail: unknown): string {
  return detail === null || detail === undefined ? '' : JSON.stringify(detail);
}

function AuditRow({ e }: { e: AuditEntry }) {
  return (
    <tr data-call-id={e.callId ?? ''}>
      <td>
        <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time>
      </td>
      <td>{e.tool}</td>
      <td>{e.caller}</td>
      <td>{e.step}</td>
      <td className={`outcome outcome-${e.outcome}`}>{e.outcome}</td>
      <td className="mono">{e.callId?.slice(0, 8) ?? ''}</td>
      <td className="mono detail">{e.reason ?? detailText(e.detail)}</td>
    </tr>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <div className="table-wrap">
      <table className="audit" aria-label="Audit log">
        <thead>
          <tr>
            {['Time', 'Tool', 'Caller', 'Step', 'Outcome', 'Call', 'Reason / detail'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <AuditRow key={e.id} e={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A pager button that stays in the tab order when there is nowhere to go (aria-disabled). */
function PagerButton(props: { label: string; enabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-disabled={!props.enabled}
      onClick={() => props.enabled && props.onClick()}
    >
      {props.label}
    </button>
  );
}

export function AuditPage() {
  const { filter, setFilter, page, error, pageNo, hasOlder, older, newer, reload } = useAudit();
  return (
    <main className="page">
      <div className="toolbar">
        <h1>Audit</h1>
        <AuditFilters value={filter} onChange={setFilter} />
      </div>
      {error !== undefined && (
        <p className="notice error" role="alert">
          Cannot load the audit log: {error}
        </p>
      )}
      {page === undefined && error === undefined && <p className="muted">Loading…</p>}
      {page?.entries.length === 0 && (
        <p className="empty">
          No audit rows match. Every tool call through <code>cairn-tools</code> writes one row per
          pipeline step; clear the filters or make a call.
        </p>
      )}
      {page !== undefined && page.entries.length > 0 && <AuditTable entries={page.entries} />}
      <nav className="pager" aria-label="Audit pages">
        <PagerButton label="Newer" enabled={pageNo > 1} onClick={newer} />
        <span className="muted" aria-live="polite">
          Page {pageNo}
        </span>
        <PagerButton label="Older" enabled={hasOlder} onClick={older} />
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </nav>
    </main>
  );
}
