import { defineConfig } from 'vitest/config';
import { berthCatalogs } from './scripts/i18n-catalogs.mjs';

// Unit tests sit next to the code they test (`*.test.ts[x]`); integration
// tests that spawn real servers live in test/integration. Renderer tests opt
// into jsdom with a `// @vitest-environment jsdom` first line.
export default defineConfig({
  // The renderer's message catalogs, compiled as the build compiles them (renderer/i18n).
  plugins: [berthCatalogs()],
  test: {
    include: ['{app,main,preload,renderer,shared,scripts}/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/setup/dom-timeouts.ts', 'renderer/test-support/i18n-setup.ts'],
    testTimeout: 30_000,
    // expect.poll's own default is one second: too short for a real server process to answer on a loaded two-core
    // machine (tasks polled at 250 ms, a stderr line after a cancel). Like the DOM wait limit in the setup file, a
    // longer limit changes nothing when the test passes and only delays the report when it fails.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    // Two cores: integration tests spawn real processes, keep the pool small.
    maxWorkers: 2,
    pool: 'forks',
  },
});
