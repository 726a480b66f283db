// Builds the dashboard into web/dist, which `cairn serve` serves at `/`. Every asset is bundled
// locally (no CDN). The board's state machine is imported from src/board/model.ts, the same
// pure module the server enforces.
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
