// A seeded, bounded hostile-input sweep over every tool of every MCP server and binding: each
// call to a listed tool settles as a result without a stack trace (invalid arguments are the
// tool error `invalid args` naming the field, with _meta.denied.reason invalid_args); -32602 is
// only for an unknown tool or a malformed envelope. Afterwards tools/list answers, the store is
// whole (integrity_check on SQLite), nothing was logged as a fault and the seeded data is intact.
// CAIRN_HOSTILE_SEED / CAIRN_HOSTILE_ROUNDS explore.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it, onTestFinished } from 'vitest';

import type { Principal } from '../../src/backplane/index.js';
import { agentPrincipal, createBroker } from '../../src/broker/index.js';
import type { Core } from '../../src/core/index.js';
import {
  createBackplaneServer,
  createContextServer,
  createMemoryServer,
  createTasksServer,
  createTeamChatServer,
  createToolsServer,
  createVaultServer,
} from '../../src/mcp/index.js';
import { credentialsOf, OPERATOR } from '../backplane/helpers.js';
import { discoveryOf, FULL_ENV, LOAD_TS, makeProject } from '../context/fixtures.js';
import { callOk, tempDir, textOf } from '../helpers.js';
import { pendingApproval } from '../tools/helpers.js';
import { callVault, NOTES, writeNotes } from '../vault/fixtures.js';
import {
  callOnce,
  closeOpened,
  connect,
  expectHealthy,
  openCore,
  shorten,
  sweep,
} from './harness.js';

afterEach(closeOpened);

describe('hostile-input sweep', () => {
  it('tasks: unbound, bound (agent + team) and read-only', async () => {
    const core = await openCore();
    const seed = await connect(createTasksServer(core, {}));
    const create = (tool: string, args: Record<string, unknown>) =>
      callOk<{ id: string }>(seed, tool, args);
    const root = await create('create_task', { title: 'Seed root', teamId: 'team-a' });
    const sub = await create('create_subtask', { parentTaskId: root.id, title: 'Seed sub' });
    const other = await create('create_task', { title: 'Other', teamId: 'team-b' });
    await callOk(seed, 'add_comment', { taskId: root.id, body: 'seed comment' });
    const bound = { scopeAgentId: 'agent-a', scopeTeamId: 'team-a' };
    const targets = [
      { label: 'tasks/unbound', client: seed },
      { label: 'tasks/bound', client: await connect(createTasksServer(core, bound)) },
      {
        label: 'tasks/read-only',
        client: await connect(createTasksServer(core, { readOnly: true })),
      },
    ];
    const ids = [root.id, sub.id, other.id, 'no-such-task'];
    const agents = ['agent-a', 'agent-b'];
    const failures = await sweep(targets, {
      plausible: {
        ...{ taskId: ids, parentTaskId: ids, dependsOnTaskId: ids, teamId: ['team-a', 'team-b'] },
        ...{ assigneeAgentId: agents, authorAgentId: agents, assigneeRuntime: ['claude-code'] },
        ...{ title: ['Sweep task'], body: ['done @agent-a'] },
      },
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    const detail = await core.board.getTask(root.id);
    expect(detail.task.title).toBe('Seed root');
    expect(detail.comments.map((c) => c.body)).toContain('seed comment');
    expect((await core.board.getTask(sub.id)).task.parentTaskId).toBe(root.id);
  });

  it('memory: unbound and bound', async () => {
    const core = await openCore();
    const seed = await connect(createMemoryServer(core, {}));
    const save = async (args: Record<string, unknown>): Promise<string> => {
      const r = await callOk<{ fact?: { id: string }; procedure?: { id: string } }>(
        seed,
        'memory_save',
        args,
      );
      const id = (r.fact ?? r.procedure)?.id;
      if (id === undefined) throw new Error('memory_save returned no id');
      return id;
    };
    const team = { scopeTeamId: 'team-a' };
    const fact = await save({ title: 'Seed', content: 'Keys rotate monthly.', ...team });
    const global = await save({ title: 'Global', content: 'The wiki moved.' });
    const proc = await save({ procedureName: 'deploy', content: '1. build 2. ship', ...team });
    const bound = { scopeTeamId: 'team-a', scopeAgentId: 'agent-a' };
    const targets = [
      { label: 'memory/unbound', client: seed },
      { label: 'memory/bound', client: await connect(createMemoryServer(core, bound)) },
    ];
    const failures = await sweep(targets, {
      plausible: {
        ...{ id: [fact, global, proc, 'no-such-id'], query: ['keys rotate', 'deploy*', 'wiki'] },
        ...{ content: ['Sweep fact.'], title: ['Sweep'], 'tags[]': ['ops'] },
        ...{
          procedureName: ['deploy'],
          scopeTeamId: ['team-a', 'team-b'],
          scopeAgentId: ['agent-a'],
        },
      },
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    const content = async (id: string, teamId?: string) =>
      (await core.memory.get(id, { teamId })).item.content;
    expect(await content(fact, 'team-a')).toBe('Keys rotate monthly.');
    expect(await content(global)).toBe('The wiki moved.');
    expect(await content(proc, 'team-a')).toBe('1. build 2. ship');
  });

  it('tools: unbound (approvals expire at once) and bound (allow_always grants)', async () => {
    const base = await openCore();
    const dir = join(base.dbPath, '..');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'still here');
    // web_search reaches this stub, never the network; some answers fail, as upstreams do.
    const fetchStub: typeof fetch = (_url, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as { query?: unknown };
      const query = String(body.query);
      if (query.length % 3 === 1) return Promise.resolve(new Response('down', { status: 503 }));
      if (query.length % 3 === 2) return Promise.resolve(new Response('not json'));
      return Promise.resolve(
        Response.json({ results: [{ title: 'T', url: 'u', content: query }] }),
      );
    };
    const env = { TAVILY_API_KEY: 'sweep-fake-key' };
    // A 30 ms approval TTL: unbound gated calls get approval_expired instead of waiting 5 min.
    // The circuit never opens, so later calls still reach validation and the executors.
    const config = { approvalPollMs: 5, approvalTtlMs: 30, circuitThreshold: 1e9 };
    const broker = createBroker(base.store, { config, env, fetch: fetchStub });
    const core: Core = { ...base, broker };
    // The bound agent's allow_always grants, decided while a long-TTL broker's calls wait.
    const granting = createBroker(base.store, {
      config: { approvalPollMs: 5 },
      env,
      fetch: fetchStub,
    });
    for (const [tool, args] of [
      ['delete_path', { path: victim }],
      ['web_search', { query: 'abc' }],
    ] as const) {
      const principal = agentPrincipal('sweeper');
      const call = granting.call({ tool, args, caller: 'sweeper', principal });
      const pending = await pendingApproval({ ...base, broker: granting }, tool);
      await granting.decide(pending.id, 'allow_always');
      await call;
    }
    const bound = await connect(createToolsServer(core, { scopeAgentId: 'sweeper' }));
    await callOk(bound, 'note', { note: 'seed note' });
    const targets = [
      { label: 'tools/unbound', client: await connect(createToolsServer(core, {})) },
      { label: 'tools/bound', client: bound },
    ];
    const failures = await sweep(targets, {
      plausible: {
        ...{ message: ['hello'], note: ['remember'], query: ['cairn stones', 'ab', 'abc'] },
        ...{ limit: [1, 5, 20, 21], path: [victim] },
      },
      // delete_path's executor is a demo that never touches the file system
      // (src/broker/builtins.ts); every path it is sent stays inside this temp dir all the same.
      confine: { path: (p) => (p === victim ? p : join(dir, p.replace(/[./\\]/g, '_'))) },
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    expect(existsSync(victim)).toBe(true);
    const notes = await broker.listNotes({ caller: 'sweeper', limit: 100_000 });
    expect(notes.map((n) => n.note)).toContain('seed note');
  });

  it('teamchat: bound with delegate, and unbound', async () => {
    const core = await openCore();
    const bobBinding = { roomTeamId: 'team-a', postAuthorAgentId: 'bob' };
    const bob = await connect(createTeamChatServer(core, bobBinding));
    await callOk(bob, 'team_chat_post', { text: 'seed post from bob' });
    const lead = { roomTeamId: 'team-a', postAuthorAgentId: 'lead', delegate: true };
    const targets = [
      { label: 'teamchat/delegate', client: await connect(createTeamChatServer(core, lead)) },
      { label: 'teamchat/unbound', client: await connect(createTeamChatServer(core, {})) },
    ];
    const people = ['bob', 'lead', 'carol'];
    const failures = await sweep(targets, {
      plausible: {
        ...{ text: ['hi @bob'], authorAgentId: people, assignee: [...people, 'nobody'] },
        ...{ task: ['Notes\nAll PRs'], teamId: ['team-a', 'team-b'], roomId: ['team:team-a'] },
        ...{ sinceSeq: [0, 1, 3], limit: [1, 500] },
        // A long-poll must not sit out its 30 s maximum in a sweep.
        waitMs: [0, 1, 20],
      },
      pinned: new Set(['waitMs']),
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    const room = { roomId: 'team:team-a', viewer: 'auditor', sinceSeq: 0, limit: 500 };
    const { posts } = await core.rooms.subscribe(room);
    const seeded = posts.filter((p) => p.authorAgentId === 'bob');
    expect(seeded.some((p) => p.wrapped.includes('seed post from bob'))).toBe(true);
  });

  it('backplane: the operator and a worker', async () => {
    const core = await openCore();
    const op = await connect(createBackplaneServer(core, { principal: OPERATOR }));
    const registered = await op.callTool({
      name: 'register_agent',
      arguments: { nick: 'worker-001', channels: ['#general'] },
    });
    const creds = credentialsOf(textOf(registered));
    const sent = await op.callTool({
      name: 'send_message',
      arguments: { channel: '#general', type: 'text', payload: { text: 'seed' } },
    });
    const seededId = (sent.structuredContent as { id: string }).id;
    const worker: Principal | undefined = await core.backplane.agents.authenticateToken(
      creds.token,
    );
    if (worker === undefined) throw new Error('worker token did not authenticate');
    const targets = [
      { label: 'backplane/operator', client: op },
      {
        label: 'backplane/worker',
        client: await connect(createBackplaneServer(core, { principal: worker })),
      },
    ];
    const channels = ['#general', '#fleet', '#agent.sweep-1', '#team.team-a', '#nope'];
    const failures = await sweep(targets, {
      plausible: {
        ...{
          nick: ['worker-001', 'sweep-1', 'sweep-2'],
          channel: channels,
          'channels[]': channels,
        },
        ...{ type: ['worker', 'orchestrator', 'observer', 'text', 'task.create'], limit: [1, 500] },
        ...{ payload: [{ text: 'hi' }, {}, { n: 1 }], 'to[]': ['@all', 'worker-001'] },
      },
      extraCodes: [-32001],
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    const history = await core.backplane.history({ channel: '#general', limit: 500 });
    expect(history.map((m) => m.envelope.id)).toContain(seededId);
    const again = await core.backplane.agents.authenticateToken(creds.token);
    expect(again).toMatchObject({ nick: 'worker-001' });
  });

  it('context: every family (search, index, validate, memory, session, agent, project, vcs, entity), with one code root holding a loop and a FIFO', async () => {
    const project = makeProject();
    onTestFinished(() => project.dir.cleanup());
    const root = project.root;
    symlinkSync('.', join(root, 'src/loop'));
    const fifo = join(root, 'src/pipe.ts');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      // No mkfifo here: the sweep still runs, without the FIFO.
    }
    const core = await openCore({ codeRoots: [root], provenance: discoveryOf(FULL_ENV, root) });
    const targets = [{ label: 'context', client: await connect(createContextServer(core)) }];
    const inside = [
      '',
      'src',
      'src/load.ts',
      'src/blob.ts',
      'src/loop',
      'src/pipe.ts',
      'README.md',
    ];
    const failures = await sweep(targets, {
      plausible: {
        ...{ path: [...inside.map((p) => join(root, p)), 'nope.ts', '/etc/passwd', '.'] },
        ...{ scope: ['file', 'project'], category: ['hygiene', 'size'] },
        ...{ 'rules[]': ['todo-comment', 'debug-print', 'no-such-rule'] },
        ...{ repo_path: [root, join(root, 'src'), '/etc', 'nope'], repo_id: ['r', ''] },
        ...{ base_branch: ['main', 'HEAD', '--upload-pack=x', '../x'], target_branch: ['HEAD'] },
        ...{ depth: [1, 3, 10, 11], query: ['ma', 'load path', 'TODO'], limit: [1, 5] },
        ...{
          collection: ['demo', 'nope', '../x'],
          action: ['start', 'git_index', 'create', 'list', 'release'],
        },
        ...{ 'extensions[]': ['ts', '.py', '*'], 'exclude_dirs[]': ['src', '/'] },
        ...{ 'ignore_patterns[]': ['*', '!src', '**/*.ts'], max_file_size: [1, 1024] },
        ...{ dry_run: [true], wait_seconds: [0, 1] },
        ...{
          resource: ['code', 'memory', 'observation', 'session', 'issue', 'project', 'branch'],
          min_score: [0, 0.5, 1],
          token: ['eyJ.x.y'],
        },
        ...{ 'filters[]': ['lang:ts', 'path:src/', 'kind:function', 'branch:@', 'nope:x'] },
        ...{ 'ids[]': ['nope', ''], anchor_id: ['nope'], window_secs: [1] },
        ...{ 'observation_types[]': ['error_pattern', 'nope'], max_tokens: [1, 50, 100_000] },
        ...{ depth_before: [0, 100], depth_after: [1, 101], 'tags[]': ['ci'] },
        ...{
          session_id: ['s-1', 's-2', 'nope', '../x', 's1', ''],
          status: ['active', 'completed', 'x'],
        },
        ...{
          agent_type: ['worker', 'reviewer'],
          project_id: ['acme/app', 'p', '*'],
          id: ['nope', ''],
          repository_id: ['nope'],
          worktree_id: ['main'],
        },
        ...{
          data: [
            { session_id: 's-1', title: 'fix the build' },
            { tool_name: 'read_file', args: { path: 'src/load.ts' }, error: 'boom' },
            { child_session_id: 's-2', task: 'review', status: 'completed' },
            { status: 'completed', open_items: ['docs'] },
            { name: 'main', title: 'fix', from_id: 'a', depends_on_id: 'a' },
            { id: 'nope', limit: 2 },
            { nope: 1 },
            { content: 'the build failed', tags: ['ci'] },
            { content: '' },
            {},
          ],
        },
      },
      positions: true,
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    expect(readFileSync(join(root, 'src/load.ts'), 'utf8')).toBe(LOAD_TS);
  });
});

describe('hostile-input sweep: vault', () => {
  it('vault: every tool, with a synced vault, a symlink into a restricted folder and a second vault', async () => {
    const notes = tempDir('cairn-sweep-vault-');
    onTestFinished(() => notes.cleanup());
    writeNotes(notes.path, NOTES);
    mkdirSync(join(notes.path, '.ssh'));
    symlinkSync(join(notes.path, '.ssh'), join(notes.path, 'keys'));
    const core = await openCore();
    const client = await connect(createVaultServer(core));
    await callVault(client, 'vault_sync', { vault: 'default', content_root: notes.path });
    await callVault(client, 'vault_sync', {
      vault: 'other',
      content_root: join(notes.path, 'notes'),
    });
    const targets = [{ label: 'vault', client }];
    const failures = await sweep(targets, {
      plausible: {
        ...{ query: ['queue retry', 'latest handoff', 'why did we', 'notes/lunch.md', '#zzzzzz'] },
        ...{
          file: ['decisions/queue.md', '#000000', '../etc/passwd', '**'],
          docid: ['notes/lunch.md', '#x'],
        },
        ...{
          pattern: ['**/*.md', 'notes/*', '[', 'a.md,b.md'],
          vault: ['default', 'other', 'nope', '../x'],
        },
        ...{ content_root: [notes.path, join(notes.path, 'keys'), '/etc/', 'nope', '/root'] },
        ...{
          collection: ['default', '_clawmem', 'nope', 'a,b'],
          collection_name: ['c2', '_clawmem'],
        },
        ...{ minScore: [0, 0.5, 1], limit: [1, 10, 50], until: ['2030-01-01', 'soon'] },
        ...{
          entry: ['Shipped it.'],
          agent: ['codex'],
          last_n: [1, 100],
          project_path: [notes.path],
        },
        ...{ mode: ['auto', 'keyword', 'semantic', 'timeline'], force_intent: ['WHY', 'WHAT'] },
        ...{
          candidateLimit: [1, 30],
          maxBytes: [1, 10240],
          fromLine: [1, 99999],
          maxLines: [1, 5],
        },
      },
      positions: true,
    });
    expect(failures).toEqual([]);
    await expectHealthy(core, targets);
    expect(readFileSync(join(notes.path, 'decisions/queue.md'), 'utf8')).toBe(
      NOTES['decisions/queue.md'],
    );
  });
});

describe('tools/call whose envelope is malformed', () => {
  // The SDK's own tools/call registration answers these with -32603 and zod's issue list
  // (modelcontextprotocol/typescript-sdk#2284); src/mcp/tool-call.ts checks the envelope itself.
  it('answers -32602 naming the field on every server, and the session keeps working', async () => {
    const core = await openCore();
    const servers = [
      createTasksServer(core),
      createMemoryServer(core),
      createToolsServer(core),
      createTeamChatServer(core),
      createBackplaneServer(core, { principal: OPERATOR }),
      createContextServer(core),
    ];
    const wrong: string[] = [];
    for (const server of servers) {
      const client = await connect(server);
      const [tool] = (await client.listTools()).tools;
      const name = tool?.name ?? '';
      const cases: [string, unknown, RegExp][] = [
        ...[null, [], 'x', 7, true].map((args): [string, unknown, RegExp] => [
          name,
          args,
          /^invalid args: arguments: /,
        ]),
        [42 as unknown as string, {}, /^invalid args: name: /],
      ];
      for (const [called, args, pattern] of cases) {
        const outcome = await callOnce(client, called, args);
        const ok =
          outcome.kind === 'rpc' &&
          outcome.code === -32602 &&
          pattern.test(outcome.message.replace(/^MCP error -32602: /, ''));
        if (!ok) wrong.push(`${String(called)} ${JSON.stringify(args)}: ${shorten(outcome)}`);
      }
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      expect((await callOnce(client, name, {})).kind).not.toBe('timeout');
    }
    expect(wrong).toEqual([]);
  });
});
