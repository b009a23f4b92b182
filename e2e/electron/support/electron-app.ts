import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import { FakeAnthropic } from '../../fake-llm/fake-anthropic';
import { startDisplay, type Display } from './display';
import { electronBinary, ROOT } from './electron-binary';

export { expect };

export const ELECTRON_BINARY = electronBinary();
const MISSING_BINARY = 'No Electron binary in node_modules/electron (node node_modules/electron/install.js fetches it)';
/**
 * Why these specs are skipped here, shown in the report; undefined where they
 * run. With BERTH_REQUIRE_ELECTRON set (CI on the desktop platforms) they are
 * never skipped: a missing binary fails them instead.
 */
export const ELECTRON_UNAVAILABLE =
  ELECTRON_BINARY === undefined && !process.env.BERTH_REQUIRE_ELECTRON
    ? `${MISSING_BINARY}: Electron specs skipped`
    : undefined;

/** The key the fake Anthropic API demands (and Berth is given). */
const FAKE_API_KEY = 'sk-ant-e2e-fake-key-0000';

/** Berth as the desktop app: Electron running the built main bundle, with its own config dir. */
export interface BerthDesktop {
  app: ElectronApplication;
  window: Page;
  configDir: string;
}

interface Options {
  initialConfig: Record<string, unknown> | undefined;
}

function electronEnv(configDir: string, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The runner's own key must never reach a test; ELECTRON_RUN_AS_NODE would make Electron plain Node.
    if (value !== undefined && !key.startsWith('ANTHROPIC_') && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
  }
  return { ...env, BERTH_CONFIG_DIR: configDir, ...extra };
}

/**
 * `desktop`: Berth started in Electron for this test (`electron <repo>`, as
 * `npm start` does; package.json's main is the built dist/main/index.cjs),
 * closed after it. `fakeLlm`: a scripted Anthropic API it is pointed at.
 */
export const test = base.extend<Options & { fakeLlm: FakeAnthropic; desktop: BerthDesktop }, { display: Display }>({
  initialConfig: [undefined, { option: true }],
  display: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const display = await startDisplay();
      try {
        await use(display);
      } finally {
        await display.stop();
      }
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  fakeLlm: async ({}, use) => {
    const fake = await FakeAnthropic.start({ apiKey: FAKE_API_KEY });
    try {
      await use(fake);
    } finally {
      await fake.close();
    }
  },
  desktop: async ({ display, fakeLlm, initialConfig }, use, testInfo) => {
    if (ELECTRON_BINARY === undefined) throw new Error(`${MISSING_BINARY}, and BERTH_REQUIRE_ELECTRON is set.`);
    if (!existsSync(join(ROOT, 'dist', 'main', 'index.cjs')))
      throw new Error('Berth is not built (dist/main/index.cjs); run npm run build first.');
    const configDir = await mkdtemp(join(tmpdir(), 'berth-electron-e2e-'));
    if (initialConfig !== undefined)
      await writeFile(join(configDir, 'config.json'), JSON.stringify(initialConfig, null, 2));
    // Chromium will not start as root with its sandbox (CI containers run as root).
    const noSandbox = process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    const app = await electron.launch({
      executablePath: ELECTRON_BINARY,
      args: [ROOT, ...noSandbox],
      cwd: ROOT,
      env: electronEnv(configDir, { ...display.env, ANTHROPIC_BASE_URL: fakeLlm.url, ANTHROPIC_API_KEY: FAKE_API_KEY }),
    });
    let output = '';
    app.process().stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      const window = await app.firstWindow();
      await use({ app, window, configDir });
    } finally {
      // Idempotent: a spec may have closed it already to check what quitting leaves behind.
      await app.close();
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('electron-stderr', { body: output, contentType: 'text/plain' });
      await rm(configDir, { recursive: true, force: true, maxRetries: 3 });
    }
  },
});
