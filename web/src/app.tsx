// The dashboard shell: session gate, header with navigation, and the current page. Pages are
// listed in PAGES so new ones (rooms, memory, approvals, …) slot in beside the board.
import type { ReactNode } from 'react';

import { BoardPage } from './board/board-page.js';
import { useSession } from './session.js';

const PAGES: ReadonlyArray<{ path: string; label: string; render: () => ReactNode }> = [
  { path: '/', label: 'Board', render: () => <BoardPage /> },
];

function LoggedOut({ message }: { message?: string | undefined }) {
  return (
    <main className="center-note">
      <h1>Cairn</h1>
      {message !== undefined && <p role="alert">Login failed: {message}</p>}
      <p>
        You are not logged in. Run <code>npx cairn open</code> on the machine that runs Cairn; it
        prints a one-time link (valid 5 minutes) that logs this browser in.
      </p>
    </main>
  );
}

function Shell() {
  const page = PAGES.find((p) => p.path === window.location.pathname) ?? PAGES[0];
  return (
    <>
      <header className="top">
        <span className="brand">Cairn</span>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <a key={p.path} href={p.path} aria-current={p === page ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
      </header>
      {page?.render()}
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
