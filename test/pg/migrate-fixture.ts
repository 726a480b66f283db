// A SQLite store with real data for the migrate-store tests, written through the servers and
// services a team uses: tasks with a comment, a dependency and a claim; memory items with
// embeddings; room posts; an approval and its audit; a backplane agent; graph entities; a vault
// synced from notes and embedded; code-index rows.
import { join } from 'node:path';

import { createCore } from '../../src/core/index.js';
import {
  createBackplaneServer,
  createGraphServer,
  createMemoryServer,
  createTasksServer,
  createToolsServer,
  createVaultServer,
} from '../../src/mcp/index.js';
import { addCollection, addFile } from '../code-rows.js';
import { callOk, linkedClient, silentLogger, tempDir } from '../helpers.js';
import { hashEmbedder } from '../memory/fixtures.js';
import { pendingApproval } from '../tools/helpers.js';
import { callVault, NOTES, writeNotes } from '../vault/fixtures.js';

export const ROOM = 'team:core';

export interface SourceFacts {
  file: string;
  /** Task ids: claimed (with a comment), blocked on it, and one left in todo. */
  tasks: { claimed: string; blocked: string; todo: string };
  memoryIds: string[];
  approvalId: string;
  posts: number;
  cleanup(): void;
}

async function writeTasks(client: Awaited<ReturnType<typeof linkedClient>>) {
  const claimed = await callOk<{ id: string }>(client, 'create_task', {
    title: 'Write the migration',
  });
  const blocked = await callOk<{ id: string }>(client, 'create_task', { title: 'Review it' });
  const todo = await callOk<{ id: string }>(client, 'create_task', { title: 'Left for later' });
  await callOk(client, 'link_task', { taskId: blocked.id, dependsOnTaskId: claimed.id });
  await callOk(client, 'add_comment', { taskId: claimed.id, body: 'started on the copy' });
  await callOk(client, 'claim_task', { taskId: claimed.id, assigneeAgentId: 'ann' });
  return { claimed: claimed.id, blocked: blocked.id, todo: todo.id };
}

type Core = Awaited<ReturnType<typeof createCore>>;

async function writeMemory(core: Core): Promise<string[]> {
  const memory = await linkedClient(createMemoryServer(core));
  const ids: string[] = [];
  for (const [title, content] of [
    ['deploy key', 'the deploy key rotates every monday'],
    ['staging', 'staging runs on the blue cluster'],
    ['on-call', 'on-call pages go to the ops channel'],
  ]) {
    const saved = await callOk<{ fact: { id: string } }>(memory, 'memory_save', {
      kind: 'fact',
      title,
      content,
    });
    ids.push(saved.fact.id);
  }
  await core.embedWorker?.drain();
  return ids;
}

/** An approval decided while the call waited: the approval row and its audit trail. */
async function writeApproval(core: Core, path: string): Promise<string> {
  const tools = await linkedClient(createToolsServer(core, { scopeAgentId: 'ops' }));
  const call = callOk(tools, 'delete_path', { path });
  const approval = await pendingApproval(core);
  await core.broker.decide(approval.id, 'allow_once');
  await call;
  return approval.id;
}

async function writeOthers(core: Core, notes: string): Promise<void> {
  for (const text of ['hello team', 'copy starts now', 'copy done'])
    await core.rooms.post({ roomId: ROOM, authorAgentId: 'ann', text });
  const backplane = await linkedClient(createBackplaneServer(core));
  const agent = await backplane.callTool({
    name: 'register_agent',
    arguments: { nick: 'builder' },
  });
  if (agent.isError === true) throw new Error(`register_agent failed: ${JSON.stringify(agent)}`);
  const graph = await linkedClient(createGraphServer(core, { graph: 'default' }));
  await callOk(graph, 'create_entities', {
    entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the copy'] }],
  });
  const vault = await linkedClient(createVaultServer(core));
  await callVault(vault, 'vault_sync', { vault: 'default', content_root: notes });
  await core.vaultEmbedWorker?.drain();
  // A document superseded by a later one (a column the vault reads; no tool writes it yet):
  // its reference points forward in copy order, as a task's parent never does.
  await core.store.run(
    `UPDATE vault_documents SET superseded_by = (SELECT MAX(id) FROM vault_documents)
     WHERE id = (SELECT MIN(id) FROM vault_documents)`,
  );
  await core.store.write(async (tx) => {
    const c = await addCollection(tx, 'demo');
    await addFile(tx, c, 'src/a.ts', [{ symbol: 'copy', text: 'function copy() {}' }]);
  });
}

/** Builds the store in a temp folder; `cleanup` removes it. */
export async function buildSqliteSource(): Promise<SourceFacts> {
  const dir = tempDir('cairn-migrate-');
  const notes = join(dir.path, 'notes');
  writeNotes(notes, NOTES);
  const file = join(dir.path, 'cairn.db');
  try {
    const core = await createCore({
      dbPath: file,
      dbUrl: '',
      logger: silentLogger,
      embedder: hashEmbedder(),
      codeRoots: [dir.path],
    });
    try {
      const tasks = await writeTasks(await linkedClient(createTasksServer(core)));
      const memoryIds = await writeMemory(core);
      const approvalId = await writeApproval(core, join(dir.path, 'old'));
      await writeOthers(core, notes);
      return { file, tasks, memoryIds, approvalId, posts: 3, cleanup: dir.cleanup };
    } finally {
      await core.close();
    }
  } catch (err) {
    dir.cleanup();
    throw err;
  }
}
