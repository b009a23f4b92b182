import { defineConfig } from 'vitest/config';

// Unit tests sit next to the code they test (`*.test.ts[x]`); integration
// tests that spawn real servers live in test/integration. Renderer tests opt
// into jsdom with a `// @vitest-environment jsdom` first line.
export default defineConfig({
  test: {
    include: ['{app,main,preload,renderer,shared,scripts}/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/setup/dom-timeouts.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: integration tests spawn real processes, keep the pool small.
    maxWorkers: 2,
    pool: 'forks',
  },
});
