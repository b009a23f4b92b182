import { join } from 'node:path';
import { ServersPage } from './pages/servers-page';
import { calm, DOCS_DIR, expect, test } from './support/berth';

// Issue 33, item 3: a server that lists two tools named `search`. The detail says what the model is offered
// instead, and the Tools tab marks the renamed one.

const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', 'servers', name);

test.describe('tools that share a name', () => {
  test.use({ initialConfig: { mcpServers: { dup: { command: process.execPath, args: [fixture('dup-names.mjs')] } } } });

  test('the detail says which name is shared, and the Tools tab marks the renamed twin', async ({ app }) => {
    const servers = new ServersPage(app);
    await servers.expectStatus('dup', 'Ready');
    const detail = await servers.select('dup');
    await expect(detail.root.getByTestId('tool-twins').getByRole('listitem')).toHaveText([
      '2 tools share the name search: the second is offered to the model as search_2.',
    ]);
    await detail.showTools();
    const twin = detail.root.locator('[data-tool="search_2"]');
    await expect(twin.getByText('listed as search', { exact: true })).toBeVisible();
    await expect(twin).toContainText('Search the files by glob pattern');
    await expect(detail.root.locator('[data-tool="search"]').getByText('listed as search')).toHaveCount(0);
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'server-tool-twins.png') });
  });
});
