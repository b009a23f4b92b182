import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServersPage } from './pages/servers-page';
import { RemoteEverything, freePort } from '../app/servers/test-support';
import { DOCS_DIR, expect, test } from './support/berth';

test.describe('remote servers', () => {
  let remote: RemoteEverything | undefined;
  test.afterEach(async () => {
    await remote?.kill();
  });

  test('adds a remote server by URL with a secret header, shows the negotiated transport, and keeps the secret masked', async ({
    app,
    berth,
  }) => {
    remote = new RemoteEverything('streamableHttp', await freePort());
    await remote.start();
    const url = remote.url;
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({
      name: 'remote',
      remote: {
        url,
        headers: [
          { key: 'Authorization', value: 'Bearer e2e-secret-token' },
          { key: 'X-Team', value: 'berth' },
        ],
      },
    });
    // Authorization is always a secret: its switch is on and locked.
    await expect(form.dialog.getByRole('switch', { name: /Header 1 always holds a credential/ })).toBeChecked();
    await expect(form.field('Header 1 value')).toHaveAttribute('type', 'password');
    await app.mouse.move(0, 0);
    await app.locator(':focus').blur();
    await form.dialog.screenshot({ path: join(DOCS_DIR, 'screenshots', 'remote-server-form.png') });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    await servers.expectStatus('remote', 'Ready');
    await expect(servers.card('remote')).toContainText(url);
    const detail = await servers.select('remote');
    await detail.showOverview();
    const facts = detail.overview;
    await expect(facts).toContainText(url);
    await expect(facts).toContainText('Streamable HTTP');
    await detail.showTools();
    await expect(detail.root.getByText('echo', { exact: true }).first()).toBeVisible();

    // Editing shows the stored secret as a mask, never the value.
    const edit = await servers.edit('remote');
    await expect(edit.field('Server URL')).toHaveValue(url);
    await expect(edit.field('Header 1 value')).not.toHaveValue('Bearer e2e-secret-token');
    await expect(edit.field('Header 2 value')).toHaveValue('berth');
    expect(await app.content()).not.toContain('e2e-secret-token');
    // The header lives in the secret store; config.json only refers to it.
    const configText = await readFile(join(berth.configDir, 'config.json'), 'utf8');
    expect(configText).toContain('${secret:server/remote/header/Authorization}');
    expect(configText).not.toContain('e2e-secret-token');
    expect(configText).toContain('"X-Team": "berth"');
  });

  test('checks the address before saving', async ({ app }) => {
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'far', remote: { url: 'http://mcp.example.com/mcp' } });
    await form.submit();
    await expect(form.errorFor('Server URL')).toContainText('Use https://');
    await expect(form.dialog).toBeVisible();
  });
});
