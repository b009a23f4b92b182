import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { FakeAnthropic, type FakeTurnSource } from '../fake-llm/fake-anthropic';
import { startBerth, type BerthHost, type BerthOptions } from './berth-process';

export { expect };
export type { FakeAnthropic, FakeTurnSource };
export { startBerth };
export type { BerthHost, BerthOptions };

/** The repository's docs/ folder, where the screenshot specs write the README's pictures. */
export const DOCS_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'docs');

/** The JS entry behind an npm package's bin, run with this Node so no network or npx is needed. */
export function packageBinEntry(pkgName: string, binName: string): string {
  const require = createRequire(import.meta.url);
  // Packages whose "exports" leave out package.json are found through the resolver's own search path.
  const folder = (require.resolve.paths(pkgName) ?? [])
    .map((base) => join(base, pkgName))
    .find((candidate) => existsSync(join(candidate, 'package.json')));
  if (folder === undefined) throw new Error(`${pkgName} is not installed (npm ci installs it)`);
  const manifest = join(folder, 'package.json');
  const pkg = require(manifest) as { bin: Record<string, string> };
  const bin = pkg.bin[binName];
  if (!bin) throw new Error(`${pkgName} has no bin named ${binName}`);
  return join(dirname(manifest), bin);
}

/** The stdio entry of the reference server. */
export const SERVER_EVERYTHING_ENTRY = packageBinEntry(
  '@modelcontextprotocol/server-everything',
  'mcp-server-everything',
);

/** A config entry that starts server-everything over stdio. */
export function everythingServerConfig(): { command: string; args: string[] } {
  return { command: process.execPath, args: [SERVER_EVERYTHING_ENTRY, 'stdio'] };
}

/** The key the fake Anthropic API demands (and the host is given). */
/** Before a screenshot: no hover states or focus rings in the picture. */
export async function calm(app: Page): Promise<void> {
  await app.mouse.move(0, 790);
  const focused = app.locator(':focus');
  if ((await focused.count()) > 0) await focused.first().blur();
}

export const FAKE_API_KEY = 'sk-ant-e2e-fake-key-0000';

/**
 * `berth`: a host started for this test (stopped after it, and its clean exit
 * checked); `app`: the page opened at the host's URL. Override
 * `initialConfig` with `test.use({ initialConfig: … })`.
 */
export const test = base.extend<BerthOptions & { berth: BerthHost; app: Page }>({
  initialConfig: [undefined, { option: true }],
  hostEnv: [undefined, { option: true }],
  initialSettings: [undefined, { option: true }],
  berth: async ({ initialConfig, hostEnv, initialSettings }, use, testInfo) => {
    const host = await startBerth({ initialConfig, hostEnv, initialSettings });
    try {
      await use(host);
    } finally {
      const code = await host.stop();
      if (testInfo.status !== testInfo.expectedStatus)
        await testInfo.attach('berth-stderr', { body: host.stderr(), contentType: 'text/plain' });
      expect(code, `Berth should exit cleanly on SIGTERM.\nstderr:\n${host.stderr()}`).toBe(0);
    }
  },
  app: async ({ page, berth }, use) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(berth.url);
    await use(page);
    expect(pageErrors, 'the page should not throw').toEqual([]);
  },
});

/**
 * `test` plus a fake Anthropic API (in this worker, scripted per test with
 * `fakeLlm.script([...])`) that the host is pointed at through
 * ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY.
 */
export const chatTest = test.extend<{ fakeLlm: FakeAnthropic }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  fakeLlm: async ({}, use) => {
    const fake = await FakeAnthropic.start({ apiKey: FAKE_API_KEY });
    try {
      await use(fake);
    } finally {
      await fake.close();
    }
  },
  hostEnv: async ({ fakeLlm }, use) => {
    await use({ ANTHROPIC_BASE_URL: fakeLlm.url, ANTHROPIC_API_KEY: FAKE_API_KEY });
  },
});

/**
 * A scripted model turn that calls the MCP tool `tool` under whatever name
 * Berth offered it (e.g. `everything__echo`); fails the request loudly when
 * no such tool was offered.
 */
export function toolNamed(tool: string, input: Record<string, unknown> = {}, text?: string): FakeTurnSource {
  return (request) => {
    const offered = (request.body?.tools ?? []).map((t) => String(t.name));
    const name = offered.find((n) => n === tool || n.endsWith(`__${tool}`));
    if (name === undefined)
      throw new Error(`the model was not offered a tool named ${tool}; offered: ${offered.join(', ') || 'none'}`);
    return { ...(text !== undefined ? { text } : {}), toolUses: [{ name, input }] };
  };
}
