// Every session- and agent-family tool once over any transport (the stdio and HTTP suites):
// start_session, log_tool_call (one failure, a secret), log_delegation, update, get_session,
// list_sessions, then summarize_session twice (the second finds the session unchanged).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';

import { metaCaller } from './fixtures.js';

type Row = Record<string, unknown>;

/** What sessionRoundTrip saw, for the transport suites to check. */
export interface SessionRoundTrip {
  session: Row;
  timeline: string[];
  listed: string[];
  first: Row;
  second: Row;
  provenance: unknown;
}

export const ROUND_TRIP_SECRET = 'ghp_' + 'Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4N';

export async function sessionRoundTrip(
  client: Client,
  meta: Record<string, unknown> = {},
): Promise<SessionRoundTrip> {
  const call = metaCaller(client, meta);
  await call('start_session', {
    session_id: 'rt',
    data: { title: 'round trip', agent_type: 'worker' },
  });
  await call('log_tool_call', {
    session_id: 'rt',
    data: { tool_name: 'bash', error: `denied ${ROUND_TRIP_SECRET}`, files: ['build.log'] },
  });
  await call('log_tool_call', {
    session_id: 'rt',
    data: { tool_name: 'read_file', args: { path: 'a.ts' } },
  });
  await call('log_delegation', {
    session_id: 'rt',
    data: { child_session_id: 'rt-child', task: 'review' },
  });
  await call('start_session', {
    action: 'update',
    session_id: 'rt',
    data: { status: 'completed' },
  });
  const detail = await call('get_session', { session_id: 'rt' });
  const listed = await call('list_sessions', { agent_type: 'worker' });
  const first = await call('summarize_session', { session_id: 'rt' });
  const second = await call('summarize_session', { session_id: 'rt' });
  return {
    session: detail.data['session'] as Row,
    timeline: (detail.data['timeline'] as Row[]).map((e) => String(e['kind'])),
    listed: (listed.data['sessions'] as Row[]).map((s) => String(s['id'])),
    first: first.data,
    second: second.data,
    provenance: first.meta?.['cairn/provenance'],
  };
}

/** What every transport's round trip must show (the same script, the same answers). */
export function expectSessionRoundTrip(r: SessionRoundTrip): void {
  expect(r.session).toMatchObject({
    id: 'rt',
    status: 'completed',
    counts: { toolCalls: 2, errors: 1, delegations: 1 },
  });
  expect(r.timeline).toEqual(['tool_call', 'tool_call', 'delegation']);
  expect(r.listed).toEqual(['rt']);
  expect(r.first).toMatchObject({
    written: true,
    summary: { failedCalls: 1, files: ['build.log', 'a.ts'] },
  });
  expect(String(r.first['text'])).toContain('- rt-child [started]');
  expect(JSON.stringify(r.first)).not.toContain(ROUND_TRIP_SECRET);
  expect(r.second).toMatchObject({ written: false, memoryId: r.first['memoryId'] });
}
