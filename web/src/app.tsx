// The dashboard shell: session gate, a skip link, header with navigation (and the
// pending-approvals badge), and the current page. Pages are listed in PAGES; new ones slot in
// beside the others.
import './shell.css';

import type { ReactNode } from 'react';

import { AgentsPage } from './agents/agents-page.js';
import { ApprovalsPage } from './approvals/approvals-page.js';
import { type Pending, usePending } from './approvals/use-pending.js';
import { AuditPage } from './audit/audit-page.js';
import { BoardPage } from './board/board-page.js';
import { ConnectPage } from './connect/connect-page.js';
import { InlineCode } from './inline-code.js';
import { MemoryPage } from './memory/memory-page.js';
import { RoomsPage } from './rooms/rooms-page.js';
import { useSession } from './session.js';
import { SessionsPage } from './sessions/sessions-page.js';

interface PageDef {
  path: string;
  label: string;
  render: (pending: Pending) => ReactNode;
}

const PAGES: readonly PageDef[] = [
  { path: '/', label: 'Board', render: () => <BoardPage /> },
  { path: '/approvals', label: 'Approvals', render: (p) => <ApprovalsPage pending={p} /> },
  { path: '/audit', label: 'Audit', render: () => <AuditPage /> },
  { path: '/memory', label: 'Memory', render: () => <MemoryPage /> },
  { path: '/agents', label: 'Agents', render: () => <AgentsPage /> },
  { path: '/sessions', label: 'Sessions', render: () => <SessionsPage /> },
  { path: '/connect', label: 'Connect', render: () => <ConnectPage /> },
  { path: '/rooms', label: 'Rooms', render: () => <RoomsPage /> },
];

function LoggedOut({ message }: { message?: string | undefined }) {
  return (
    <main className="center-note">
      <h1>Cairn</h1>
      {message !== undefined && (
        <p role="alert">
          Login failed: <InlineCode text={message} />
        </p>
      )}
      <p>
        You are not logged in. Run <code>npx cairn open</code> on the machine that runs Cairn; it
        prints a one-time link (valid 5 minutes) that logs this browser in.
      </p>
    </main>
  );
}

function PendingBadge({ count }: { count: number | undefined }) {
  if (count === undefined || count === 0) return null;
  const label = `${count} pending approval${count === 1 ? '' : 's'}`;
  return (
    <span className="badge" data-testid="pending-badge" aria-label={label} title={label}>
      {count}
    </span>
  );
}

function Shell() {
  const pending = usePending();
  const page = PAGES.find((p) => p.path === window.location.pathname) ?? PAGES[0];
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Cairn</span>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <a key={p.path} href={p.path} aria-current={p === page ? 'page' : undefined}>
              {p.label}
              {p.path === '/approvals' && <PendingBadge count={pending.approvals?.length} />}
            </a>
          ))}
        </nav>
      </header>
      <div id="content" tabIndex={-1}>
        {page?.render(pending)}
      </div>
    </>
  );
}

export function App() {
  const session = useSession();
  if (session.kind === 'loading') return <p className="center-note">Loading…</p>;
  if (session.kind === 'anonymous') return <LoggedOut message={session.message} />;
  if (session.kind === 'error') {
    return (
      <p className="center-note" role="alert">
        Cannot reach Cairn: {session.message}
      </p>
    );
  }
  return <Shell />;
}
