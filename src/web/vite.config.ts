import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Built into dist/web, which the server reads at start (src/api/web-app-routes.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // ECharts alone is over Vite's 500 kB warning; it is loaded once and cached for good.
    chunkSizeWarningLimit: 1200,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
