import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServersPage } from './pages/servers-page';
import { SettingsPage } from './pages/settings-page';
import { expect, test } from './support/berth';

test.describe('shell', () => {
  test('explains how to open Berth when the page has no token', async ({ berth, page }) => {
    const withoutToken = berth.url.replace(/#.*$/, '');
    await page.goto(withoutToken);
    await expect(page.getByRole('heading', { name: 'Open Berth from the address it printed' })).toBeVisible();
    await expect(page.getByText('npm start')).toBeVisible();
  });

  test('keeps the token out of the address bar and survives a reload', async ({ app }) => {
    await expect(app.getByTestId('connection-state')).toHaveText('Connected');
    expect(app.url()).not.toContain('token=');
    await app.reload();
    await expect(app.getByTestId('connection-state')).toHaveText('Connected');
    await expect(new ServersPage(app).emptyState).toBeVisible();

    // A reload opens where the person was, not the first view.
    await new SettingsPage(app).show();
    await app.reload();
    await expect(app.getByTestId('connection-state')).toHaveText('Connected');
    await expect(app.getByRole('heading', { name: 'Tool permissions' })).toBeVisible();
    await expect(
      app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Settings/ }),
    ).toHaveAttribute('aria-current', 'page');
  });

  test('shows a banner when the host goes away', async ({ app, berth }) => {
    await expect(app.getByTestId('connection-state')).toHaveText('Connected');
    // The first view loads on demand from the host: stopping it before that chunk is in tests a different case (a view that cannot load).
    await expect(new ServersPage(app).emptyState).toBeVisible();
    await berth.stop();
    await expect(app.getByTestId('connection-banner')).toContainText('Connection to Berth lost');
    await expect(app.getByTestId('connection-state')).not.toHaveText('Connected');
  });
});

test.describe('config problems', () => {
  // A comma is missing after line 3, so the file is not JSON.
  test.use({
    initialConfig: '{\n  "mcpServers": {\n    "a": { "command": "node" }\n    "b": { "command": "node" }\n  }\n}\n',
  });

  test('shows an invalid config, and its fix-it editor keeps the text until it is valid', async ({ app }) => {
    const banner = app.getByTestId('config-banner');
    await expect(banner).toContainText('Your config file has a problem');
    await expect(banner).toContainText(/Line \d+/);
    await banner.getByRole('button', { name: 'Fix it' }).click();
    const editor = app.getByLabel('Config file text');
    await expect(editor).toHaveValue(/"mcpServers"/);
    await editor.fill('{ "mcpServers": { "x": ');
    await app.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(app.getByRole('alert', { name: 'Problems in the config file' })).toBeVisible();
    await expect(editor).toHaveValue('{ "mcpServers": { "x": ');
    await editor.fill('{ "mcpServers": {} }');
    await app.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(banner).toBeHidden();
    await expect(editor).toBeHidden();
  });
});

test.describe('an invalid config with a plain secret', () => {
  const SECRET = 'ghp_e2eSecretValue4242';
  // A trailing comma keeps the whole file invalid, so the value is still in it.
  test.use({
    initialConfig: `{\n  "mcpServers": {\n    "gh": { "command": "node", "enabled": false, "env": { "GITHUB_TOKEN": "${SECRET}" }, "secretEnv": ["GITHUB_TOKEN"] },\n  }\n}\n`,
  });

  test('the fix-it editor hides the value, says so, and saving with the mask in place keeps it', async ({
    app,
    berth,
  }) => {
    await app.getByTestId('config-banner').getByRole('button', { name: 'Fix it' }).click();
    const editor = app.getByLabel('Config file text');
    await expect(editor).toHaveValue(/"GITHUB_TOKEN": "••••••••"/);
    expect(await editor.inputValue()).not.toContain(SECRET);
    await expect(app.getByTestId('hidden-secrets-note')).toContainText('This file holds a secret value in plain text');
    await editor.fill((await editor.inputValue()).replace('},\n  }', '}\n  }'));
    await app.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(editor).toBeHidden();
    const file = await readFile(join(berth.configDir, 'config.json'), 'utf8');
    expect(file).toContain('${secret:server/gh/env/GITHUB_TOKEN}');
    expect(file).not.toContain('••••••••');
    const stored = JSON.parse(await readFile(join(berth.configDir, 'secrets.json'), 'utf8')) as {
      secrets: Record<string, string>;
    };
    expect(stored.secrets['server/gh/env/GITHUB_TOKEN']).toBe(SECRET);
  });
});
