import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TestOAuthServer } from '../test/integration/oauth-support';
import { ServersPage } from './pages/servers-page';
import { DOCS_DIR, expect, test } from './support/berth';

/** Each test's authorization server (and protected MCP server). */
let as: TestOAuthServer | undefined;
test.afterEach(async () => {
  await as?.stop();
  as = undefined;
});

test.describe('OAuth sign-in to a remote server', () => {
  test('a server that wants a sign-in says so; Sign in opens the authorization page, the server starts; Sign out forgets it', async ({
    app,
    berth,
  }) => {
    as = new TestOAuthServer();
    await as.start();
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'notes', remote: { url: as.mcpUrl } });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    // Not an error to fix: a sign-in to do, offered in the row and the header.
    await servers.expectStatus('notes', 'Needs sign-in');
    await expect(servers.card('notes').getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    const detail = await servers.select('notes');
    await expect(detail.header).toContainText('Needs sign-in');
    await expect(detail.reason).toContainText('needs you to sign in');
    await app.mouse.move(0, 0);
    await detail.root.screenshot({ path: join(DOCS_DIR, 'screenshots', 'oauth-sign-in.png') });

    // Browser mode: the page opens a tab inside the click; it goes to the authorization server and back to Berth's loopback listener.
    const popup = app.waitForEvent('popup');
    await detail.root.getByRole('button', { name: 'Sign in', exact: true }).click();
    const tab = await popup;
    await expect(tab.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    await expect(tab.getByText('You can close this tab and return to Berth.')).toBeVisible();
    await tab.close();

    await servers.expectStatus('notes', 'Ready');
    await expect(servers.card('notes').getByText('Signed in', { exact: true })).toBeVisible();
    await expect(detail.header.getByText('Signed in', { exact: true })).toBeVisible();
    await expect(detail.root.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
    await detail.showOverview();
    await expect(detail.root.getByText('Signed in with OAuth · the token renews automatically')).toBeVisible();
    await app.mouse.move(0, 0);
    await detail.root.screenshot({ path: join(DOCS_DIR, 'screenshots', 'oauth-signed-in.png') });
    await detail.showTools();
    await expect(detail.root.getByText('whoami', { exact: true }).first()).toBeVisible();
    const secrets = Object.keys(
      (JSON.parse(await readFile(join(berth.configDir, 'secrets.json'), 'utf8')) as { secrets: Record<string, string> })
        .secrets,
    );
    expect(secrets.filter((key) => key.startsWith('oauth/notes/'))).toHaveLength(2);
    for (const token of as.accessTokens.keys()) expect(await app.content()).not.toContain(token);

    await servers.signOut('notes');
    await servers.expectStatus('notes', 'Needs sign-in');
    await expect(detail.reason).toContainText('needs you to sign in');
    await expect(detail.root.getByText(/Signed in/)).toHaveCount(0);
  });
});

test.describe('OAuth client settings in the server form', () => {
  test('client credentials entered in the form: the server starts with no sign-in; the secret stays masked and out of config.json', async ({
    app,
    berth,
  }) => {
    as = new TestOAuthServer();
    await as.start();
    as.preRegister('ci-robot', { secret: 'cs-e2e-5f1d9a7c' });
    const servers = new ServersPage(app);
    const form = await servers.openAddForm();
    await form.fill({ name: 'robot', remote: { url: as.mcpUrl } });
    await form.dialog.getByRole('button', { name: 'Sign-in (OAuth): automatic' }).click();
    await form.dialog.getByRole('radio', { name: 'Client credentials' }).click();
    await form.dialog.getByLabel('Client ID').fill('ci-robot');
    await form.dialog.getByLabel('Client secret').fill('cs-e2e-5f1d9a7c');
    await form.dialog.getByLabel('Scopes').fill('mcp:tools');
    await expect(
      form.dialog.getByRole('button', { name: 'Sign-in (OAuth): client credentials as ci-robot' }),
    ).toBeVisible();
    await app.mouse.move(0, 0);
    await form.dialog.screenshot({ path: join(DOCS_DIR, 'screenshots', 'server-form-oauth.png') });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    await servers.expectStatus('robot', 'Ready');
    await expect(servers.card('robot').getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);
    expect(as.tokenRequests.map((request) => request.get('grant_type'))).toEqual(['client_credentials']);
    expect(await readFile(join(berth.configDir, 'config.json'), 'utf8')).not.toContain('cs-e2e-5f1d9a7c');
    expect(await app.content()).not.toContain('cs-e2e-5f1d9a7c');

    // The first success pinned the authorization server: remembered in config.json and shown in the form.
    await expect
      .poll(
        async () =>
          JSON.parse(await readFile(join(berth.configDir, 'config.json'), 'utf8')).mcpServers.robot.oauth.issuer,
      )
      .toBe(as.base);
    // Editing shows the secret masked and the pinned issuer; saving unchanged keeps both.
    const edit = await servers.edit('robot');
    await expect(edit.dialog.getByLabel('Client secret')).toHaveValue('••••••••');
    await expect(edit.dialog.getByLabel('Authorization server')).toHaveValue(as.base);
    await edit.submit();
    await expect(edit.dialog).toBeHidden();
    await servers.expectStatus('robot', 'Ready');
  });
});
