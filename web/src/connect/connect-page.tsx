// The connect page: the attach snippet (from `GET /api/mcp/config`) for a runtime, server and
// transport, with the file it goes in and a copy button. The server validates every choice.
import { useEffect, useState } from 'react';

import '../ops.css';

import { api, errorText } from '../api.js';
import { CopyButton } from '../copy-button.js';

// The choices mirror RUNTIMES (src/http/attach.ts) and MCP_SERVER_NAMES (src/mcp/registry.ts);
// both live in server-only modules, so the page lists them and the route refuses strays.
const RUNTIMES = ['claude-code', 'codex', 'cursor', 'openclaw'] as const;
const SERVERS = [
  'tasks',
  'memory',
  'teamchat',
  'tools',
  'backplane',
  'context',
  'vault',
  'graph',
] as const;
const TRANSPORTS = ['http', 'stdio'] as const;

interface Snippet {
  file: string;
  format: string;
  snippet: string;
  url?: string;
}

interface Choice {
  runtime: string;
  server: string;
  transport: string;
}

function useSnippet(choice: Choice) {
  const [snippet, setSnippet] = useState<Snippet>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    setSnippet(undefined);
    api<Snippet>(`/api/mcp/config?${new URLSearchParams({ ...choice }).toString()}`)
      .then((s) => live && (setSnippet(s), setError(undefined)))
      .catch((err: unknown) => live && setError(errorText(err)));
    return () => {
      live = false;
    };
  }, [choice]);
  return { snippet, error };
}

function Select(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (v: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

const FIELDS = [
  { key: 'runtime', label: 'Runtime', options: RUNTIMES },
  { key: 'server', label: 'Server', options: SERVERS },
  { key: 'transport', label: 'Transport', options: TRANSPORTS },
] as const;

function Choices({ choice, onChange }: { choice: Choice; onChange: (c: Choice) => void }) {
  return (
    <div className="filters connect-choices">
      {FIELDS.map((f) => (
        <Select
          key={f.key}
          label={f.label}
          value={choice[f.key]}
          options={f.options}
          onChange={(v) => onChange({ ...choice, [f.key]: v })}
        />
      ))}
    </div>
  );
}

function SnippetView({ snippet }: { snippet: Snippet }) {
  return (
    <section className="snippet" aria-label="Attach snippet">
      <p>
        Goes in <code>{snippet.file}</code> ({snippet.format}) <CopyButton text={snippet.snippet} />
      </p>
      <pre className="args" data-testid="snippet">
        {snippet.snippet}
      </pre>
    </section>
  );
}

export function ConnectPage() {
  const [choice, setChoice] = useState<Choice>({
    runtime: 'claude-code',
    server: 'tasks',
    transport: 'http',
  });
  const { snippet, error } = useSnippet(choice);
  return (
    <main className="page">
      <h1>Connect an agent</h1>
      <p className="muted">
        Paste the snippet into the runtime&apos;s config file. It carries this server&apos;s API
        token: keep it private.
      </p>
      <Choices choice={choice} onChange={setChoice} />
      {error !== undefined && (
        <p className="notice error" role="alert">
          Cannot build the snippet: {error}
        </p>
      )}
      {snippet === undefined && error === undefined && <p className="muted">Loading…</p>}
      {snippet !== undefined && <SnippetView snippet={snippet} />}
    </main>
  );
}
