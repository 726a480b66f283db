// The tools server's attach snippets carry the runtime's tool-call timeout where the runtime
// has one (Codex: tool_timeout_sec in the snippet; Claude Code: MCP_TOOL_TIMEOUT in the note),
// sized from the approval TTL; other servers' snippets are unchanged.
import { describe, expect, it } from 'vitest';

import { attachInput, renderAttach } from './attach.js';

const ctx = { baseUrl: 'http://127.0.0.1:4870', apiToken: 't', secret: 's', dbPath: '/x.db' };
const render = (runtime: string, server: string, approvalTtlMs?: number) =>
  renderAttach(attachInput.parse({ runtime, server }), { ...ctx, approvalTtlMs });

describe('attach snippets for the tools server', () => {
  it('Codex: tool_timeout_sec covers the approval TTL plus a margin', () => {
    const codex = render('codex', 'tools');
    expect(codex.snippet).toContain('\ntool_timeout_sec = 330\n');
    expect(codex.note).toContain('tool_timeout_sec');
    expect(render('codex', 'tools', 60_000).snippet).toContain('tool_timeout_sec = 90');
  });

  it('Claude Code: the note names MCP_TOOL_TIMEOUT in milliseconds', () => {
    const claude = render('claude-code', 'tools');
    expect(claude.note).toContain('MCP_TOOL_TIMEOUT=330000');
    expect(claude.snippet).not.toContain('MCP_TOOL_TIMEOUT');
  });

  it('Cursor and OpenClaw: no invented setting, the note says so', () => {
    for (const runtime of ['cursor', 'openclaw']) {
      const note = render(runtime, 'tools').note ?? '';
      expect(note).toContain('documents no per-call timeout setting');
      expect(note).toContain('cancelled, never run later');
    }
  });

  it('other servers get no timeout line or note', () => {
    const tasks = render('codex', 'tasks');
    expect(tasks.snippet).not.toContain('tool_timeout_sec');
    expect(tasks.note).toBeUndefined();
  });
});
