import { join } from 'node:path';
import { ServersPage } from './pages/servers-page';
import { calm, DOCS_DIR, expect, test } from './support/berth';

// Issue 33, item 6: a server whose start fails says at which stage, and what the server itself said was wrong,
// with what to do: no network (a name that does not resolve), or an API key.

const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', 'servers', name);
const FAILING = { timeouts: { startupMs: 3_000, requestMs: 5_000 }, restart: { enabled: false } };

test.describe('a start that fails', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        stripe: { command: process.execPath, args: [fixture('unreachable-api.mjs')], ...FAILING },
        supabase: {
          command: process.execPath,
          args: [fixture('tools-list-fails.mjs')],
          env: { BERTH_FIXTURE_ERROR_LINE: 'Error: 401 Unauthorized: invalid API key' },
          ...FAILING,
        },
      },
    },
  });

  test('names the stage and the server’s own error, with what to do', async ({ app }) => {
    const servers = new ServersPage(app);
    await servers.expectStatus('stripe', 'Error');
    await servers.expectStatus('supabase', 'Error');
    await expect(servers.card('stripe')).toContainText(
      'did not finish the MCP handshake within 3 s; cannot reach api.example.invalid — no network?',
    );
    await expect(servers.card('supabase')).toContainText(
      'finished the MCP handshake, but listing its tools failed: fetch failed; it probably needs an API key or token',
    );
    const detail = await servers.select('stripe');
    await expect(detail.reason).toHaveText(
      'did not finish the MCP handshake within 3 s; cannot reach api.example.invalid — no network? (stderr: [cause]: Error: getaddrinfo ENOTFOUND api.example.invalid)',
    );
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'server-start-failure.png') });
  });
});
