// The page is built into the backend package, which serves it at /insights/ (relative asset
// URLs, so it also works behind a path prefix); that folder is git-ignored and rebuilt by setup.
import {fileURLToPath} from 'node:url';
import {defineConfig} from 'vitest/config';

export default defineConfig({
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../backend/src/bookchat/api/insights_page', import.meta.url)),
    emptyOutDir: true,
    // The page's CSP allows no inline script, and every browser it targets preloads modules.
    modulePreload: {polyfill: false},
    chunkSizeWarningLimit: 600,
  },
  test: {environment: 'node', include: ['test/**/*.test.ts']},
});
