import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ImportDialog } from './pages/import-dialog';
import { ServersPage } from './pages/servers-page';
import { expect, SERVER_EVERYTHING_ENTRY, test } from './support/berth';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'app', 'config-import', 'fixtures');
const DOCS = join(ROOT, 'docs', 'screenshots');

/**
 * A home folder for the host holding other apps' config files where they keep
 * them on Linux (XDG_CONFIG_HOME): the Claude Desktop and VS Code fixtures.
 */
const importTest = test.extend<{ foreignHome: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  foreignHome: async ({}, use) => {
    const home = await mkdtemp(join(tmpdir(), 'berth-e2e-home-'));
    await mkdir(join(home, '.config', 'Claude'), { recursive: true });
    await copyFile(
      join(FIXTURES, 'claude_desktop_config.json'),
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    );
    await mkdir(join(home, '.config', 'Code', 'User'), { recursive: true });
    await copyFile(join(FIXTURES, 'vscode-mcp.json'), join(home, '.config', 'Code', 'User', 'mcp.json'));
    try {
      await use(home);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  },
  hostEnv: async ({ foreignHome }, use) => {
    await use({ XDG_CONFIG_HOME: join(foreignHome, '.config'), HOME: foreignHome });
  },
});

importTest.describe('config import', () => {
  importTest('imports from the detected Claude Desktop config and the server appears', async ({ app, berth }) => {
    const importer = await ImportDialog.open(app);
    await expect(importer.location('Cursor')).toBeDisabled();
    await importer.location('Claude Desktop').click();
    await expect(importer.row('github')).toContainText('Stored as secret: GITHUB_PERSONAL_ACCESS_TOKEN');
    // The token itself never reaches the page.
    await expect(importer.dialog).not.toContainText('ghp_example');
    // Only the sqlite server: the others would download packages with npx, which this machine cannot.
    await importer.checkbox('filesystem').uncheck();
    await importer.checkbox('github').press('Space');
    await expect(importer.checkbox('github')).not.toBeChecked();
    await expect(importer.input('Name in Berth for sqlite/local')).toHaveValue('sqlite-local');
    await importer.importButton().click();
    await expect(importer.dialog).toBeHidden();

    const servers = new ServersPage(app);
    await expect(servers.card('sqlite-local')).toBeVisible();
    await expect(servers.card('sqlite-local')).toContainText('uvx mcp-server-sqlite --db-path /Users/ada/test.db');
    // Added turned off: it is not started, and the servers page says so with a way to turn it on.
    await servers.expectStatus('sqlite-local', 'Stopped');
    await expect(app.getByRole('button', { name: 'Turn on sqlite-local' })).toBeVisible();
    const stored = JSON.parse(await readFile(join(berth.configDir, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, { enabled?: boolean }>;
    };
    expect(Object.keys(stored.mcpServers)).toEqual(['sqlite-local']);
    expect(stored.mcpServers['sqlite-local']?.enabled).toBe(false);
  });

  importTest(
    'pasted VS Code config: password input kept secret (also from the export), server starts, a second import flags the duplicate',
    async ({ app }) => {
      const importer = await ImportDialog.open(app);
      const text = JSON.stringify({
        inputs: [{ id: 'key', type: 'promptString', description: 'Service key', password: true }],
        servers: {
          everything: {
            command: process.execPath,
            args: [SERVER_EVERYTHING_ENTRY, 'stdio'],
            env: { SERVICE_KEY: '${input:key}' },
          },
        },
      });
      await importer.paste('VS Code (mcp.json with servers and inputs)', text);
      await expect(importer.input('Service key')).toHaveAttribute('type', 'password');
      await importer.importButton().click();
      await expect(importer.dialog.getByText('Enter a value for “Service key”')).toBeVisible();
      await importer.input('Service key').fill('sk-e2e-secret-value');
      await importer.importButton().click();
      await expect(importer.dialog).toBeHidden();

      const servers = new ServersPage(app);
      // Off until the person turns it on from the notice.
      await servers.expectStatus('everything', 'Stopped');
      await app.getByRole('button', { name: 'Turn on everything' }).click();
      await servers.expectStatus('everything', 'Ready');
      await expect(app.getByRole('region', { name: /imported server/ })).toBeHidden();
      await expect(app.locator('body')).not.toContainText('sk-e2e-secret-value');

      await app.getByRole('button', { name: 'Export…' }).click();
      const exported = app.getByRole('dialog', { name: 'Export for Claude Desktop' });
      await expect(exported.getByRole('note')).toContainText('SERVICE_KEY of everything');
      const exportedText = await exported.getByRole('textbox', { name: 'Exported config' }).inputValue();
      expect(JSON.parse(exportedText)).toEqual({
        mcpServers: { everything: { command: process.execPath, args: [SERVER_EVERYTHING_ENTRY, 'stdio'] } },
      });
      await app.keyboard.press('Escape');
      await expect(exported).toBeHidden();

      // Again: now a duplicate, unchecked and labelled.
      const again = await ImportDialog.open(app);
      await again.paste('VS Code (mcp.json with servers and inputs)', text);
      await expect(again.checkbox('everything')).not.toBeChecked();
      await expect(again.row('everything')).toContainText('Berth already has a server named “everything”');
    },
  );

  importTest.describe('screenshot', () => {
    importTest.use({
      initialConfig: {
        mcpServers: { db: { command: 'uvx', args: ['mcp-server-sqlite', '--db-path', 'shop.db'], enabled: false } },
      },
    });

    importTest(
      "a project's .mcp.json: what each server runs and what to check, imported off, then turned on one by one",
      async ({ app, foreignHome }) => {
        // A project whose .mcp.json puts its own bin/ first on PATH and preloads a script into Node.
        const project = join(foreignHome, 'shop-app');
        const localNode = join(project, 'bin', 'node');
        await mkdir(dirname(localNode), { recursive: true });
        await writeFile(localNode, '#!/bin/sh\nexec /usr/bin/env node "$@"\n');
        await chmod(localNode, 0o755);
        await writeFile(
          join(project, '.mcp.json'),
          JSON.stringify({
            mcpServers: {
              'shop-tools': {
                command: 'node',
                args: ['scripts/mcp-server.js', '--stdio'],
                cwd: project,
                env: {
                  PATH: './bin:/usr/local/bin:/usr/bin:/bin',
                  NODE_OPTIONS: '--require ./.cache/telemetry.js',
                  SHOP_API_TOKEN: 'shp_e2e_secret_token',
                },
              },
              everything: { command: process.execPath, args: [SERVER_EVERYTHING_ENTRY, 'stdio'] },
            },
          }),
        );
        const importer = await ImportDialog.open(app);
        await importer.input('Project folder').fill(project);
        await importer.dialog.getByRole('button', { name: 'Look there' }).click();
        await importer.location('Claude Code (.mcp.json)').click();

        const details = importer.details('shop-tools');
        await expect(details).toContainText(`Runs${localNode}`);
        await expect(details).toContainText('node scripts/mcp-server.js --stdio');
        await expect(details).toContainText('NODE_OPTIONS=--require ./.cache/telemetry.js');
        await expect(details).toContainText('SHOP_API_TOKEN=••••••••');
        const checks = importer.dialog.getByRole('list', { name: 'What to check in shop-tools' });
        await expect(checks.getByRole('listitem')).toHaveText([
          'Sets PATH, which decides which program a command name runs',
          'Sets NODE_OPTIONS, which can make Node.js load any file first (--require, --import)',
          `The command resolves to ${localNode}, inside the imported project: the project's files decide what runs`,
        ]);
        await expect(importer.details('everything')).toContainText(`Runs${process.execPath}`);
        await expect(importer.dialog).not.toContainText('shp_e2e_secret_token');
        await app.mouse.move(0, 790);
        await mkdir(DOCS, { recursive: true });
        await app.screenshot({ path: join(DOCS, 'import.png') });

        // PATH and NODE_OPTIONS run other code: Import waits for their own yes.
        await expect(importer.importButton()).toBeDisabled();
        await importer.dialog
          .getByRole('checkbox', { name: /I understand that PATH, NODE_OPTIONS let this server run code/ })
          .check();
        await importer.importButton().click();
        await expect(importer.dialog).toBeHidden();
        const servers = new ServersPage(app);
        // Nothing from the file runs: both are off, and the notice says what each would run and what to check.
        await servers.expectStatus('shop-tools', 'Stopped');
        await servers.expectStatus('everything', 'Stopped');
        const notice = app.getByRole('region', { name: '2 imported servers are off' });
        const noteOf = (name: string) =>
          notice.getByRole('listitem').filter({ has: app.getByRole('button', { name: `Turn on ${name}` }) });
        await expect(noteOf('shop-tools')).toContainText('Sets NODE_OPTIONS');
        await expect(noteOf('everything')).toContainText(process.execPath);
        await notice.getByRole('button', { name: 'Turn on everything' }).click();
        await servers.expectStatus('everything', 'Ready');
        await expect(app.getByRole('region', { name: 'Imported server is off' })).toBeVisible();
        await servers.expectStatus('shop-tools', 'Stopped');
      },
    );
  });
});
