// Builds the dashboard (web/dist) when it is missing or older than its sources. Used by
// `npm start` (prestart) and the test global setup; `npm run build:web` always rebuilds.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = dirname(fileURLToPath(import.meta.url));
const root = join(web, '..');

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when web/dist/index.html is missing or older than a source file. */
export function webBuildStale() {
  const built = statSync(join(web, 'dist', 'index.html'), { throwIfNoEntry: false });
  if (built === undefined) return true;
  const sources = [
    join(web, 'src'),
    join(web, 'index.html'),
    join(web, 'vite.config.ts'),
    join(root, 'src', 'board', 'model.ts'),
  ];
  return Math.max(...sources.map(newest)) > built.mtimeMs;
}

/** Runs `vite build` for web/ when the build is stale. */
export function ensureWebBuild() {
  if (!webBuildStale()) return;
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', join(web, 'vite.config.ts')], {
    cwd: root,
    // vitest runs this with NODE_ENV=test, which would ship React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureWebBuild();
