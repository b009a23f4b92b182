import { defineConfig } from '@playwright/test';
import { AUTOMATION_FLAGS, findBrowser } from './app/cli/browser-lookup.mjs';
import { electronBinary } from './e2e/electron/support/electron-binary';

// Two projects:
// - `browser`: every spec in e2e/ drives the real browser-mode host
//   (e2e/support/berth.ts starts one per test) in the browser that
//   app/cli/browser-lookup.mjs picks: BERTH_BROWSER, Playwright's own
//   Chromium, or the machine's Chrome / Chromium / Edge. `npm test` runs
//   scripts/provision-browser.mjs first, which installs one where it can.
// - `electron`: e2e/electron/ drives the packaged-style Electron app; its
//   specs are reported as skipped where there is no Electron binary.
const browser = findBrowser();
if (browser.kind === 'not-found') {
  const fix = process.env.BERTH_BROWSER?.trim()
    ? 'Point BERTH_BROWSER at a Chromium-family browser, or unset it.'
    : 'Run node scripts/provision-browser.mjs (npm test does) to install one.';
  throw new Error(`The end-to-end tests need a Chromium-family browser. ${browser.reason}. ${fix}`);
}

// Said once, by the runner (the config is loaded again in every worker).
if (
  process.env.TEST_WORKER_INDEX === undefined &&
  electronBinary() === undefined &&
  !process.env.BERTH_REQUIRE_ELECTRON
) {
  process.stderr.write(
    'Electron e2e specs: skipped, no Electron binary in node_modules/electron (node node_modules/electron/install.js fetches it).\n',
  );
}

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
    viewport: { width: 1280, height: 800 },
    // The specs read Berth in English unless they set a language of their own (e2e/language.spec.ts): the machine's
    // own language must not change what they find.
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'browser',
      testIgnore: 'electron/**',
      use: {
        headless: true,
        launchOptions: {
          executablePath: browser.path,
          args: [...AUTOMATION_FLAGS],
        },
      },
    },
    {
      name: 'electron',
      testDir: 'e2e/electron',
    },
  ],
});
