import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { berthCatalogs } from './scripts/i18n-catalogs.mjs';

// The renderer is served by the host (browser mode) or loaded from file:// (Electron),
// both under a CSP of `script-src 'self'`: relative asset URLs, no inline scripts.
export default defineConfig({
  root: 'renderer',
  base: './',
  // berthCatalogs: each locale's message catalog, compiled ahead of time, as a chunk of its own (renderer/i18n).
  plugins: [react(), berthCatalogs()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Inlined modulepreload polyfill would be an inline script; modern Chromium does not need it.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'chrome120',
    // Views other than the chat, dialogs and the Markdown stack are separate chunks loaded on
    // demand (React.lazy); scripts/check-initial-js.mjs holds the first screen to its budget.
    chunkSizeWarningLimit: 600,
  },
});
