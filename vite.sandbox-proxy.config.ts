import { defineConfig } from 'vite';

// The MCP Apps sandbox proxy (renderer/sandbox-proxy/): a page of its own, served on an
// origin that is not Berth's (app/apps/sandbox-proxy-server.ts, main/app-sandbox-protocol.ts).
// A separate build so dist/sandbox-proxy holds only its files and shares no chunk with the
// renderer; its own CSP header allows `script-src 'self'`, so no inline script either.
export default defineConfig({
  root: 'renderer/sandbox-proxy',
  base: './',
  build: {
    outDir: '../../dist/sandbox-proxy',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'chrome120',
  },
});
