// Entry point of `npm run eval [-- NAME… | -- NAME --flag…]`: runs the named retrieval-quality
// evals, or all of them, in order. Flags (`--quick`, …) go to every eval named. Add an eval by
// adding one entry to EVALS (loaded lazily).
const EVALS: Record<string, (flags: readonly string[]) => Promise<void>> = {
  memory: async (flags) => (await import('./eval/memory/index.js')).runMemoryEval(flags),
  code: async (flags) => (await import('./eval/code/index.js')).runCodeEval(flags),
  vault: async (flags) => (await import('./eval/vault/index.js')).runVaultEval(flags),
  extract: async (flags) => (await import('./eval/extract/index.js')).runExtractEval(flags),
};

async function main(argv: readonly string[]): Promise<number> {
  const flags = argv.filter((a) => a.startsWith('--'));
  const named = argv.filter((a) => !a.startsWith('--'));
  const names = named.length === 0 ? Object.keys(EVALS) : named;
  const unknown = names.filter((name) => !(name in EVALS));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown eval: ${unknown.join(', ')} (available: ${Object.keys(EVALS).join(', ')})\n`,
    );
    return 2;
  }
  for (const name of names) {
    const started = Date.now();
    try {
      await EVALS[name]?.(flags);
    } catch (err) {
      process.stderr.write(
        `[eval] ${name} failed: ${err instanceof Error ? err.message : String(err)}\n`,
      );
      return 1;
    }
    process.stderr.write(
      `[eval] ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
