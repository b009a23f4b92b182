import { defineConfig } from '@playwright/test';

// End-to-end specs drive the real browser-mode host (e2e/support/berth.ts
// starts one per test) in Debian's Chromium: Playwright's own browser
// download is not available on the build machines.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Each test spawns a host plus real MCP servers; two cores do not take more.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
