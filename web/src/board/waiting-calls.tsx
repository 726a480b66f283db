// The drawer's list of a task's broker calls waiting for a human: tool, a short summary of the
// arguments and when it expires, each a link to that approval on the Approvals page. Read-only:
// the decision is made there.
import { approvalHref } from '../approvals/links.js';
import { span, useNow } from '../time.js';
import { msOf } from '../wire.js';
import type { WaitingCalls as Waiting } from './use-task-detail.js';

const MAX_SUMMARY = 80;

/** `path: /srv/x, recursive: true`: top-level fields, strings unquoted, cut at 80 characters. */
export function argSummary(args: unknown): string {
  const text =
    typeof args === 'object' && args !== null && !Array.isArray(args)
      ? Object.entries(args)
          .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(', ')
      : (JSON.stringify(args) ?? '');
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

/** Nothing when no call waits; the list (or why it could not be read) otherwise. */
export function WaitingCalls({ waiting }: { waiting: Waiting }) {
  const now = useNow();
  const open = waiting.approvals.filter((a) => msOf(a.expiresAt) > now);
  if (open.length === 0 && waiting.error === null) return null;
  return (
    <section className="drawer-section waiting-calls">
      <h3>Waiting for approval</h3>
      {waiting.error !== null && <p role="alert">Cannot read the waiting calls: {waiting.error}</p>}
      <ul className="links" aria-label="Calls waiting for approval">
        {open.map((a) => (
          <li key={a.id} data-approval-id={a.id}>
            <a href={approvalHref(a.id)}>
              <code>{a.tool}</code> {argSummary(a.args)}
            </a>{' '}
            <span className="muted">
              expires in{' '}
              <time dateTime={a.expiresAt} title={new Date(a.expiresAt).toLocaleString()}>
                {span(msOf(a.expiresAt) - now)}
              </time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
