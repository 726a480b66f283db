// The local model's worker: console output never reaches stdout, failures are typed, a crashed
// worker is replaced, and an idle worker never keeps the process alive. Fixture modules stand in
// for the model only where the real one cannot be made to misbehave.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { EmbedError } from './errors.js';
import { createLocalEmbedder, type LocalEmbedderOptions } from './local.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Writes a fake runtime whose model logs to stdout, counts loads in `loads.txt`, fails to load
 * when `broken`, and kills its worker when asked to embed the text "crash".
 */
function fixture(broken = false): {
  modules: LocalEmbedderOptions['modules'] & {};
  loads(): number;
} {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-embed-'));
  dirs.push(dir);
  const loads = join(dir, 'loads.txt');
  writeFileSync(
    join(dir, 'weights.cjs'),
    `exports.modelSource = async () => {
      require('node:fs').appendFileSync(${JSON.stringify(loads)}, 'x');
      process.stdout.write('weights: loading\\n');
      if (${broken}) throw new Error('corrupt weights');
      return {};
    };`,
  );
  writeFileSync(
    join(dir, 'embeddings.cjs'),
    `exports.initModel = async (source) => {
      await source();
      return { embed: async (texts) => {
        console.log('model: embedding', texts.length);
        if (texts.includes('crash')) process.exit(3);
        return texts.map((t) => Array.from({ length: 512 }, (_, i) => (i === t.length % 512 ? 3 : 0)));
      } };
    };`,
  );
  appendFileSync(loads, '');
  return {
    modules: { embeddings: join(dir, 'embeddings.cjs'), weights: join(dir, 'weights.cjs') },
    loads: () => readFileSync(loads, 'utf8').length,
  };
}

function collector(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('local model worker', () => {
  it('routes the model’s stdout to diagnostics', async () => {
    const { modules } = fixture();
    const log = collector();
    const embedder = createLocalEmbedder({ modules, diagnostics: log.stream });
    try {
      const [v] = await embedder.embed(['four']);
      expect(v?.[4]).toBeCloseTo(1, 6);
      await new Promise((resolve) => setImmediate(resolve));
      expect(log.text()).toContain('weights: loading');
      expect(log.text()).toContain('model: embedding 1');
    } finally {
      await embedder.close();
    }
  });

  it('reports a failed load as unavailable, then fails fast until retryAfterMs', async () => {
    const { modules, loads } = fixture(true);
    const embedder = createLocalEmbedder({ modules, diagnostics: new PassThrough() });
    embedder.warm();
    const err: unknown = await embedder.ready().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbedError);
    expect(err).toMatchObject({ reason: 'unavailable' });
    expect((err as Error).message).toContain('corrupt weights');
    expect(embedder.status()).toBe('failed');
    await expect(embedder.embed(['x'])).rejects.toBe(err);
    embedder.warm();
    expect(loads()).toBe(1);
    await embedder.close();
  });

  it('replaces a crashed worker on the next call', async () => {
    const { modules, loads } = fixture();
    const embedder = createLocalEmbedder({
      modules,
      diagnostics: new PassThrough(),
      retryAfterMs: 0,
    });
    try {
      await expect(embedder.embed(['ok', 'crash'])).rejects.toMatchObject({
        reason: 'unavailable',
      });
      expect(embedder.status()).toBe('failed');
      expect(await embedder.embed(['fine'])).toHaveLength(1);
      expect(embedder.status()).toBe('ready');
      expect(loads()).toBe(2);
    } finally {
      await embedder.close();
    }
  });
});

describe('local model in a real process', () => {
  it('keeps stdout clean, never loads tfjs on the main thread, and exits without close()', () => {
    const noisy = fixture().modules;
    const script = `
      import { createRequire } from 'node:module';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('@energetic-ai'));
      const embed = await import(${JSON.stringify(join(ROOT, 'src/embed/index.ts'))});
      const report = { afterImport: loaded() };
      const embedder = embed.createEmbedder({ provider: 'local' });
      embedder.warm();
      const [v] = await embedder.embed(['stdout must stay clean']);
      Object.assign(report, { dims: v.length, ready: embedder.isReady(), afterEmbed: loaded() });
      await embed.createLocalEmbedder({ modules: ${JSON.stringify(noisy)} }).embed(['noisy']);
      createRequire(${JSON.stringify(join(ROOT, 'package.json'))})('@energetic-ai/embeddings');
      report.probeWorks = loaded();
      process.stderr.write('REPORT ' + JSON.stringify(report) + '\\n');
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.stdout).toBe('');
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toContain('weights: loading\nmodel: embedding 1\n');
    const report: unknown = JSON.parse(/REPORT (.*)/.exec(child.stderr)?.[1] ?? 'null');
    expect(report).toEqual({
      afterImport: false,
      dims: 512,
      ready: true,
      afterEmbed: false,
      probeWorks: true,
    });
  });
});
