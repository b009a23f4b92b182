import { LogsPage } from './pages/logs-page';
import { ServersPage } from './pages/servers-page';
import { everythingServerConfig, expect, SERVER_EVERYTHING_ENTRY, test } from './support/berth';

test.describe('servers', () => {
  test('adds server-everything through the form, lists its tools and shows its logs and trace', async ({ app }) => {
    const servers = new ServersPage(app);
    await expect(servers.emptyState).toBeVisible();

    const form = await servers.openAddForm();
    await form.fill({ name: 'everything', command: process.execPath, args: [SERVER_EVERYTHING_ENTRY, 'stdio'] });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    await servers.expectStatus('everything', 'Ready');
    await expect(servers.sidebarServers.getByRole('button', { name: /everything/ })).toContainText('Ready');

    const detail = await servers.select('everything');
    await detail.showTools();
    const echo = await detail.expandTool('echo');
    await expect(echo).toContainText('Echoes back the input string');
    const schemaRow = echo.getByRole('row').filter({ hasText: 'message' });
    await expect(schemaRow).toContainText('required');
    await expect(schemaRow).toContainText('string');
    await expect(echo.getByText('Claimed by the server:', { exact: true })).toBeVisible();

    await detail.showOverview();
    await expect(detail.overview).toContainText(/PID \d+/);
    await expect(detail.overview).toContainText(/\d{4}-\d{2}-\d{2} \((initialize|modern)\)/);
    await expect(detail.overview).toContainText('tools');

    const logs = await detail.openLogs();
    await expect(app.getByRole('heading', { level: 1 })).toContainText('Logs');
    await expect(logs.rowsFrom('stderr').first()).toBeVisible();
    // The handshake is traced: the initialize request (legacy era) or server/discover (modern era).
    const handshake = logs.traceRow('initialize').or(logs.traceRow('server/discover')).first();
    await expect(handshake).toBeVisible();
    const body = await logs.expand(handshake);
    await expect(body).toContainText('"jsonrpc": "2.0"');
    await expect(body).toContainText(/"method": "(initialize|server\/discover)"/);
  });

  test('says clearly when the command is not on PATH', async ({ app }) => {
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'ghost', command: 'definitely-not-a-command-xyz' });
    await form.submit();
    await expect(form.dialog).toBeHidden();
    await servers.expectStatus('ghost', /Error|Crashed|Stopped|Restarting/);
    const detail = await servers.select('ghost');
    await expect(detail.reason).toContainText('not found on PATH');
    await expect(servers.card('ghost')).toContainText('definitely-not-a-command-xyz');
  });

  test('validates the form before sending, and shows host conflicts inline', async ({ app }) => {
    const servers = new ServersPage(app);
    let form = await servers.openAddForm();
    await form.submit();
    await expect(form.errorFor('Name')).toHaveText('Give the server a name');
    await expect(form.errorFor('Command')).toContainText('Enter the command');
    await form.fill({ name: 'twin', command: 'definitely-not-a-command-xyz' });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    form = await servers.openAddForm();
    await form.fill({ name: 'twin', command: 'definitely-not-a-command-xyz' });
    await form.submit();
    await expect(form.errorFor('Name')).toBeVisible();
    await expect(form.dialog).toBeVisible();
  });

  test('edits a server and removes it after a confirmation that names it', async ({ app }) => {
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'draft', command: 'definitely-not-a-command-xyz', args: ['--one'] });
    await form.submit();
    await expect(servers.card('draft')).toBeVisible();

    const edit = await servers.edit('draft');
    await expect(edit.field('Name')).toHaveValue('draft');
    await expect(edit.field('Argument 1')).toHaveValue('--one');
    await edit.fill({ name: 'renamed', args: ['--two', 'with space'] });
    await edit.submit();
    await expect(edit.dialog).toBeHidden();
    // Shown as a shell reads it: the argument with a space in single quotes.
    await expect(servers.card('renamed')).toContainText("--two 'with space'");
    await expect(servers.card('draft')).toHaveCount(0);

    let confirm = await servers.askToRemove('renamed');
    await expect(confirm).toContainText('Remove “renamed”?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(servers.card('renamed')).toBeVisible();

    confirm = await servers.askToRemove('renamed');
    await confirm.getByRole('button', { name: 'Remove renamed' }).click();
    await expect(servers.card('renamed')).toHaveCount(0);
    await expect(servers.emptyState).toBeVisible();
  });

  test('filters logs by source and text', async ({ app }) => {
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'everything', command: process.execPath, args: [SERVER_EVERYTHING_ENTRY, 'stdio'] });
    await form.submit();
    await servers.expectStatus('everything', 'Ready');
    await app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Logs/ }).click();
    const logs = new LogsPage(app);
    await expect(logs.rowsFrom('trace').first()).toBeVisible();
    await logs.toggleSource('trace');
    await expect(logs.rowsFrom('trace')).toHaveCount(0);
    await expect(logs.rowsFrom('stderr').first()).toBeVisible();
    await logs.search('no line says this 1234');
    await expect(app.getByRole('heading', { name: 'Nothing matches' })).toBeVisible();
    await app.getByRole('button', { name: 'Reset filters' }).click();
    await expect(logs.rowsFrom('trace').first()).toBeVisible();
  });
});

test.describe('lifecycle actions', () => {
  test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  test('stops, starts, disables and enables a server from its card', async ({ app }) => {
    const servers = new ServersPage(app);
    await servers.expectStatus('everything', 'Ready');
    const card = servers.card('everything');

    await card.getByRole('button', { name: 'Stop everything', exact: true }).click();
    await servers.expectStatus('everything', 'Stopped');
    await card.getByRole('button', { name: 'Start everything', exact: true }).click();
    await servers.expectStatus('everything', 'Ready');

    const enabled = card.getByRole('switch', { name: 'everything enabled' });
    await expect(enabled).toBeChecked();
    await enabled.click();
    await expect(enabled).not.toBeChecked();
    await servers.expectStatus('everything', 'Stopped');
    await enabled.click();
    await servers.expectStatus('everything', 'Ready');
  });
});
