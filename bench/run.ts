// Entry point of `npm run bench [-- NAME…]`: runs the named benches, or all of them, in
// order. Add a bench by adding one entry to BENCHES (loaded lazily).
const BENCHES: Record<string, () => Promise<void>> = {
  tasks: async () => (await import('./tasks/index.js')).runTasksBench(),
  memory: async () => (await import('./memory/index.js')).runMemoryBench(),
  rooms: async () => (await import('./rooms/index.js')).runRoomsBench(),
  backplane: async () => (await import('./backplane/index.js')).runBackplaneBench(),
  crash: async () => (await import('./crash/index.js')).runCrashBench(),
  indexer: async () => (await import('./indexer/index.js')).runIndexerBench(),
  'code-search': async () => (await import('./code-search/index.js')).runCodeSearchBench(),
  context: async () => (await import('./context/index.js')).runContextBench(),
  vault: async () => (await import('./vault/index.js')).runVaultBench(),
  graph: async () => (await import('./graph/index.js')).runGraphBench(),
  'embed-lane': async () => (await import('./embed-lane/index.js')).runEmbedLaneBench(),
  postgres: async () => (await import('./postgres/index.js')).runPostgresBench(),
};

async function main(argv: readonly string[]): Promise<number> {
  const names = argv.length === 0 ? Object.keys(BENCHES) : argv;
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown bench: ${unknown.join(', ')} (available: ${Object.keys(BENCHES).join(', ')})\n`,
    );
    return 2;
  }
  for (const name of names) {
    const started = Date.now();
    await BENCHES[name]?.();
    process.stderr.write(
      `[bench] ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
