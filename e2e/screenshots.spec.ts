import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { LogsPage } from './pages/logs-page';
import { ServersPage } from './pages/servers-page';
import { everythingServerConfig, expect, packageBinEntry, test } from './support/berth';

// The README's pictures, taken from the real app against the real reference server.
const DOCS = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'docs');

// A realistic list: the reference server, the memory server, and one whose command is not installed here.
test.use({
  initialConfig: {
    mcpServers: {
      everything: everythingServerConfig(),
      memory: {
        command: process.execPath,
        args: [packageBinEntry('@modelcontextprotocol/server-memory', 'mcp-server-memory')],
        env: { MEMORY_FILE_PATH: join(tmpdir(), 'berth-screenshots-memory.jsonl') },
      },
      git: { command: 'uvx', args: ['mcp-server-git', '--repository', '.'] },
    },
  },
  viewport: { width: 1280, height: 800 },
});

async function serversWithDetail(app: Page): Promise<void> {
  const servers = new ServersPage(app);
  await servers.expectStatus('everything', 'Ready');
  await servers.expectStatus('memory', 'Ready');
  await expect(servers.card('git')).toContainText('not found on PATH');
  const detail = await servers.select('everything');
  await detail.showTools();
  const echo = await detail.expandTool('echo');
  await expect(echo.getByRole('table')).toBeVisible();
  await calm(app);
}

/** No hover states or focus rings in the pictures. */
async function calm(app: Page): Promise<void> {
  await app.mouse.move(0, 790);
  const focused = app.locator(':focus');
  if ((await focused.count()) > 0) await focused.first().blur();
}

test('servers view, light', async ({ app }) => {
  await serversWithDetail(app);
  await app.screenshot({ path: join(DOCS, 'screenshot.png') });
});

test.describe('dark', () => {
  test.use({ colorScheme: 'dark' });
  test('servers view, dark', async ({ app }) => {
    await serversWithDetail(app);
    await mkdir(join(DOCS, 'screenshots'), { recursive: true });
    await app.screenshot({ path: join(DOCS, 'screenshots', 'servers-dark.png') });
  });
});

test('logs view with an expanded trace', async ({ app }) => {
  const servers = new ServersPage(app);
  await servers.expectStatus('everything', 'Ready');
  const detail = await servers.select('everything');
  const logs: LogsPage = await detail.openLogs();
  // server-everything speaks the initialize era: its reply carries the negotiated version and capabilities.
  const reply = logs.traceRow('initialize', 'in');
  await expect(reply).toBeVisible();
  await expect(await logs.expand(reply)).toContainText('"result"');
  await calm(app);
  await mkdir(join(DOCS, 'screenshots'), { recursive: true });
  await app.screenshot({ path: join(DOCS, 'screenshots', 'logs.png') });
});
