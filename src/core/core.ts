// The service core: one store and the domain services over it, built once per process and
// handed to every façade. Opening the core never starts a server.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { delimiter, isAbsolute } from 'node:path';

import pino, { type Logger } from 'pino';

import { type Discovery, type DiscoveryInputs, discoverProvenance } from '../activity/index.js';
import { createObservations, type Observations } from '../activity/observations/index.js';
import { createSessions, type Sessions } from '../activity/sessions/index.js';
import { type Backplane, createBackplane } from '../backplane/index.js';
import { type Board, createBoard } from '../board/index.js';
import { type Broker, brokerConfigFromEnv, createBroker } from '../broker/index.js';
import {
  type CodeIndex,
  type CodeSearch,
  createCodeEmbedWorker,
  createCodeIndex,
  createCodeSearch,
  defaultAllowedRoots,
} from '../code/index.js';
import {
  createEmbedder,
  embedConfigFromEnv,
  type EmbedBacklog,
  type Embedder,
} from '../embed/index.js';
import { createEntities, type Entities } from '../entity/index.js';
import { createGraphService, type GraphService } from '../graph/index.js';
import {
  createEmbedWorker,
  createMemory,
  createScrubber,
  type EmbedWorker,
  type Memory,
} from '../memory/index.js';
import { createRooms, type Rooms } from '../rooms/index.js';
import {
  openStore,
  resolveDbPath,
  shareableDbUrl,
  type ShareableDbUrl,
  type Store,
} from '../store/index.js';
import {
  createQueryStages,
  createVaultContext,
  createChatFactExtractor,
  createVaultEmbedWorker,
  createVaultExtractWorker,
  type QueryStages,
  type RemoteStage,
  type VaultExtractBacklog,
  vaultExtractionFromEnv,
  type VaultConfig,
  type VaultContext,
  vaultConfigFromEnv,
  vaultStagesFromEnv,
} from '../vault/index.js';

export interface CoreOptions {
  /** The configured vaults (name → content root); default CAIRN_VAULTS. */
  vaults?: VaultConfig | undefined;
  /** The vault query pipeline's model stages; default CAIRN_VAULT_EXPANSION / CAIRN_VAULT_RERANK. */
  vaultStages?: QueryStages | undefined;
  /** The fact extraction model; default CAIRN_VAULT_EXTRACTION (null: deterministic only). */
  vaultExtraction?: RemoteStage | null | undefined;
  /** Database file; defaults to CAIRN_DB_PATH or CAIRN_HOME/cairn.db. */
  dbPath?: string | undefined;
  /** A PostgreSQL URL used instead of the file; defaults to CAIRN_DB_URL ('' forces SQLite). */
  dbUrl?: string | undefined;
  /**
   * How often a room long-poll re-reads its room when the store's signals reach every process
   * (PostgreSQL), only to cover a missed notification; default SIGNAL_SAFETY_POLL_MS. SQLite
   * waiters keep polling the file every 25 ms.
   */
  wakePollMs?: number | undefined;
  /** Claim lease length in ms (default CAIRN_LEASE_MS or 15 min). */
  leaseMs?: number | undefined;
  logger?: Logger | undefined;
  clock?: (() => number) | undefined;
  /** The embedder to use; defaults to the one CAIRN_EMBEDDINGS names. `null` disables vectors. */
  embedder?: Embedder | null | undefined;
  /**
   * Wake the background embedding worker after each save, and the chunk backlog when a search
   * sees chunks without vectors (serving processes). Default false.
   */
  autoEmbed?: boolean | undefined;
  /** Refuse a database file that does not exist (StoreMissingError) instead of creating it. */
  mustExist?: boolean | undefined;
  /**
   * Folders a code path (validate_code, analyze_code, index_repo) must lie in; default
   * CAIRN_CODE_ROOTS, else the user's home and the OS temp folder.
   */
  codeRoots?: readonly string[] | undefined;
  /** What execution-provenance discovery reads, where not the process's own (tests). */
  provenance?: Partial<DiscoveryInputs> | undefined;
}

export interface Core {
  readonly version: string;
  readonly dbPath: string;
  /**
   * The PostgreSQL database the store is on, its password left out (for attach snippets and
   * serve.json), or null on SQLite (`dbPath` is then the file).
   */
  readonly dbUrl: ShareableDbUrl | null;
  readonly store: Store;
  readonly board: Board;
  readonly memory: Memory;
  /**
   * Observation memory (cairn-context's memory family, search_memory): observations stored as
   * memory items, scrubbed, with provenance; listed, timelined, injected, searched with facts.
   */
  readonly observations: Observations;
  /** Team rooms: posts, long-poll, roster, delegation. */
  readonly rooms: Rooms;
  /** The backplane: agents, channels over rooms, typed envelopes. */
  readonly backplane: Backplane;
  /** The tool broker: gated tool calls, approvals, audit. */
  readonly broker: Broker;
  readonly embedder: Embedder | null;
  /** The background embedder (null without an embedder). */
  readonly embedWorker: EmbedWorker | null;
  /**
   * The chunk embedding backlog (null without an embedder): code chunks without a vector from
   * the embedder's model, embedded in the background. Serving processes wake it.
   */
  readonly codeEmbedWorker: EmbedBacklog | null;
  /**
   * The vault fragment embedding backlog (null without an embedder): fragments of active vault
   * documents without a vector from the embedder's model. A sync or an internal save wakes it.
   */
  readonly vaultEmbedWorker: EmbedBacklog | null;
  /**
   * The vault's model fact extraction backlog (null unless CAIRN_VAULT_EXTRACTION names a
   * model): documents whose facts the model has not read yet. A sync wakes it (autoEmbed).
   */
  readonly vaultExtractWorker: VaultExtractBacklog | null;
  /** The document vault (cairn-vault): vault resolution, filters, sync and the retrieval deps. */
  readonly vault: VaultContext;
  /** Agent sessions, their tool calls and delegations (cairn-context's session and agent families). */
  readonly sessions: Sessions;
  /** The project and entity resources (cairn-context's project and entity tools). */
  readonly entities: Entities;
  /** The knowledge graph (cairn-graph, the official memory server's drop-in), per named graph. */
  readonly graph: GraphService;
  /** search_code over the code index (with autoEmbed, a search wakes the chunk backlog). */
  readonly codeSearch: CodeSearch;
  readonly logger: Logger;
  /** The clock every domain service was built with (CoreOptions.clock, else Date.now). */
  readonly clock: () => number;
  /** Folders code paths must lie in (CoreOptions.codeRoots, CAIRN_CODE_ROOTS, home + temp). */
  readonly codeRoots: readonly string[];
  /**
   * Execution provenance (src/activity), discovered once per process: the first call starts
   * it (the context server does, when it is created), later calls share the answer. Values a
   * source offered but that failed validation are logged once, as a warning. Never rejects.
   */
  provenance(): Promise<Discovery>;
  /**
   * The code index of this store (src/code/indexer): jobs run in worker threads with their own
   * connection, paths must lie in `codeRoots`. `close` stops its jobs and watchers.
   */
  readonly codeIndex: CodeIndex;
  close(): Promise<void>;
}

function readVersion(): string {
  const url = new URL('../../package.json', import.meta.url);
  const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/** A pino logger that writes to stderr only (stdout belongs to the stdio protocol). */
export function createLogger(level = process.env['CAIRN_LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ level, base: { app: 'cairn' } }, pino.destination({ dest: 2, sync: true }));
}

function envLeaseMs(): number | undefined {
  const raw = process.env['CAIRN_LEASE_MS'];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`CAIRN_LEASE_MS must be a positive integer, got ${raw}`);
  return n;
}

/**
 * CAIRN_EMBED_REST: how long the background embedder rests after each batch, as a multiple of
 * the batch's own time (0 = never). Default 1 for the in-process local model (it shares this
 * machine's cores with request handling), 0 for remote providers.
 */
function envEmbedRest(model: string): number {
  const raw = process.env['CAIRN_EMBED_REST'];
  if (raw === undefined || raw === '') return model.startsWith('local:') ? 1 : 0;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || n > 20)
    throw new Error(`CAIRN_EMBED_REST must be a number from 0 to 20, got ${raw}`);
  return n;
}

/**
 * CAIRN_CODE_ROOTS: absolute folders separated by the platform's path delimiter (`:`); unset or
 * blank means the defaults.
 */
function envCodeRoots(): string[] | undefined {
  const raw = process.env['CAIRN_CODE_ROOTS'];
  const roots = (raw ?? '')
    .split(delimiter)
    .map((r) => r.trim())
    .filter((r) => r !== '');
  if (roots.length === 0) return undefined;
  const relative = roots.find((r) => !isAbsolute(r));
  if (relative !== undefined) {
    throw new Error(`CAIRN_CODE_ROOTS must list absolute folders, got ${relative}`);
  }
  return roots;
}

/** Discovery, once: the process's environment, working directory and host unless overridden. */
function provenanceOnce(
  logger: Logger,
  inputs: Partial<DiscoveryInputs>,
): () => Promise<Discovery> {
  let found: Promise<Discovery> | undefined;
  return () =>
    (found ??= discoverProvenance({
      env: process.env,
      cwd: process.cwd(),
      hostname: hostname(),
      ...inputs,
    }).then((discovery) => {
      for (const r of discovery.rejected) {
        logger.warn(r, 'execution provenance: a source offered a value that was refused');
      }
      return discovery;
    }));
}

/** Opens the database and builds the domain services. */
export async function createCore(options: CoreOptions = {}): Promise<Core> {
  const dbPath = resolveDbPath(options.dbPath);
  const logger = options.logger ?? createLogger();
  const codeRoots = options.codeRoots ?? envCodeRoots() ?? defaultAllowedRoots();
  // Validated before the database opens: a bad variable fails at start, naming itself.
  const vaultStages = options.vaultStages ?? createQueryStages(vaultStagesFromEnv(process.env));
  const extractionStage =
    options.vaultExtraction !== undefined
      ? options.vaultExtraction
      : vaultExtractionFromEnv(process.env);
  const store = await openStore({
    url: options.dbUrl ?? process.env['CAIRN_DB_URL'],
    path: dbPath,
    mustExist: options.mustExist === true,
  });
  const leaseMs = options.leaseMs ?? envLeaseMs();
  const board = createBoard(store, {
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const embedder =
    options.embedder !== undefined ? options.embedder : createEmbedder(embedConfigFromEnv());
  for (const warning of store.warnings) logger.warn({ db: store.location }, warning);
  // Said once at start by a process with vectors (PostgreSQL without pgvector: exact, slower).
  if (embedder !== null)
    for (const warning of store.vectorWarnings) logger.warn({ db: store.location }, warning);
  const embedWorker =
    embedder === null
      ? null
      : createEmbedWorker({
          store,
          embedder,
          runOnce: (fn) => store.locks.tryRun('embed:memory', fn),
          restRatio: envEmbedRest(embedder.model),
          onError: (err) =>
            logger.warn({ err }, 'background embedding failed; will retry on the next save'),
        });
  const codeEmbedWorker =
    embedder === null
      ? null
      : createCodeEmbedWorker({
          store,
          embedder,
          runOnce: (fn) => store.locks.tryRun('embed:code', fn),
          restRatio: envEmbedRest(embedder.model),
          onError: (err) =>
            logger.warn({ err }, 'background chunk embedding failed; will retry on the next wake'),
        });
  const vaultEmbedWorker =
    embedder === null
      ? null
      : createVaultEmbedWorker({
          store,
          embedder,
          runOnce: (fn) => store.locks.tryRun('embed:vault', fn),
          restRatio: envEmbedRest(embedder.model),
          onError: (err) =>
            logger.warn(
              { err },
              'background fragment embedding failed; will retry on the next wake',
            ),
        });
  const scrubber = createScrubber();
  const memory = createMemory(store, {
    scrubber,
    embedder,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.autoEmbed === true && embedWorker !== null
      ? { onSaved: () => embedWorker.wake() }
      : {}),
  });
  const observations = createObservations(store, {
    memory,
    scrubber,
    vectors: embedder !== null,
    clock: options.clock,
    ...(options.autoEmbed === true && embedWorker !== null
      ? { onSaved: () => embedWorker.wake() }
      : {}),
  });
  // The broker reads the live environment: web_search appears once TAVILY_API_KEY is set.
  const broker = createBroker(store, {
    config: brokerConfigFromEnv(process.env),
    env: process.env,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const rooms = createRooms(store, {
    board,
    ...(options.wakePollMs === undefined || store.signals.reach !== 'database'
      ? {}
      : { pollMs: options.wakePollMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    onError: (err) => logger.warn({ err }, 'room watch failed; retrying'),
  });
  const backplane = createBackplane(store, {
    rooms,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const autoCodeEmbed = options.autoEmbed === true ? codeEmbedWorker : null;
  const codeIndex = createCodeIndex(store, {
    allowedRoots: codeRoots,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    onWatchError: (collection, err) =>
      logger.warn({ err, collection }, 'watched collection could not be re-indexed'),
    // Each committed batch of chunks is embedded in the background while the job goes on.
    ...(autoCodeEmbed === null ? {} : { onProgress: () => autoCodeEmbed.wake() }),
  });
  const codeSearch = createCodeSearch(store, {
    embedder,
    freshness: (collection) => codeIndex.freshness(collection),
    ...(autoCodeEmbed === null ? {} : { onVectorsPending: () => autoCodeEmbed.rescan() }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const autoVaultEmbed = options.autoEmbed === true ? vaultEmbedWorker : null;
  const vaultExtractWorker =
    extractionStage === null
      ? null
      : createVaultExtractWorker({
          store,
          extractor: createChatFactExtractor(extractionStage),
          ...(options.clock === undefined ? {} : { now: options.clock }),
          onError: (err) =>
            logger.warn({ err }, 'background fact extraction failed; will retry on the next wake'),
        });
  const autoExtract = options.autoEmbed === true ? vaultExtractWorker : null;
  const vault = createVaultContext({
    store,
    embedder,
    scrubber,
    config: options.vaults ?? vaultConfigFromEnv(process.env),
    stages: vaultStages,
    extraction: vaultExtractWorker,
    ...(options.clock === undefined ? {} : { now: options.clock }),
    ...(autoVaultEmbed === null && autoExtract === null
      ? {}
      : {
          onSynced: () => {
            autoVaultEmbed?.wake();
            autoExtract?.wake();
          },
        }),
  });
  // Documents a previous process left unread by the model.
  autoExtract?.wake();
  // Sessions reach observation memory through this seam: the timeline and summaries.
  const sessions = createSessions(store, {
    scrubber,
    memory: observations,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  return {
    version: readVersion(),
    dbPath,
    dbUrl: store.dialect === 'postgres' ? shareableDbUrl(store.locator) : null,
    store,
    board,
    memory,
    observations,
    rooms,
    backplane,
    broker,
    embedder,
    embedWorker,
    codeEmbedWorker,
    vaultEmbedWorker,
    vaultExtractWorker,
    vault,
    codeSearch,
    sessions,
    entities: createEntities(store, { clock: options.clock }),
    graph: createGraphService(store, {
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    }),
    logger,
    clock: options.clock ?? Date.now,
    codeRoots,
    provenance: provenanceOnce(logger, options.provenance ?? {}),
    codeIndex,
    close: async () => {
      await codeIndex.stop();
      // Calls still running end first, so a waiting call's cancellation reaches the store.
      await broker.close();
      // Stop the worker first, then the embedder (which rejects an in-flight batch), then
      // wait for the worker to notice, so shutdown never waits on a model load.
      rooms.close();
      const stopped = Promise.all([
        embedWorker?.stop(),
        codeEmbedWorker?.stop(),
        vaultEmbedWorker?.stop(),
        vaultExtractWorker?.stop(),
      ]);
      await embedder?.close();
      await stopped;
      await store.close();
    },
  };
}
