import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { buildGreeterBundle } from './fixtures/bundles/build-bundle';
import { ServersPage } from './pages/servers-page';
import { calm, DOCS_DIR, expect, test } from './support/berth';
import { validManifest, writeZip } from '../test/integration/zip-writer';

const SECRET = 'greeter-E2E-S3CRET-9071';
const NAME = 'Berth Greeter';
const REF = '${secret:server/Berth Greeter/env/GREETER_TOKEN}';

let work: string;
let bundlePath: string;

test.beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'berth-e2e-bundles-'));
  bundlePath = await buildGreeterBundle(work);
});

test.afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

test.use({ viewport: { width: 1280, height: 1000 } });

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

/** Everything the page holds as text: rendered text, markup and the values of every field. */
async function pageText(app: Page): Promise<string> {
  const fields = app.locator('input, textarea');
  const values: string[] = [];
  for (let index = 0; index < (await fields.count()); index += 1) values.push(await fields.nth(index).inputValue());
  return `${await app.content()}\n${values.join('\n')}`;
}

/** Drops a file on the servers view the way a file manager does (a DataTransfer holding a File). */
async function dropFile(app: Page, name: string, bytes: Buffer): Promise<void> {
  await app.evaluate(
    ({ name: fileName, data }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(data), (char) => char.charCodeAt(0))], fileName));
      const target = document.querySelector('.bundle-drop-zone');
      if (target === null) throw new Error('no drop zone');
      for (const type of ['dragenter', 'dragover', 'drop'])
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    },
    { name, data: bytes.toString('base64') },
  );
}

test('a .mcpb is opened, its settings filled in, reviewed, installed and started; removing it uninstalls it', async ({
  app,
  berth,
}) => {
  const servers = new ServersPage(app);
  await servers.show();
  await expect(servers.emptyState).toBeVisible();
  await app.getByLabel('MCP Bundle file').setInputFiles(bundlePath);

  const dialog = app.getByRole('dialog', { name: 'Install an MCP Bundle' });
  await expect(dialog.getByRole('heading', { name: NAME })).toBeVisible();
  const about = dialog.getByRole('region', { name: 'About this bundle' });
  await expect(about).toContainText('1.0.0');
  await expect(about).toContainText('Node.js server');
  await expect(about).toContainText('Unsigned');
  await expect(about).toContainText('by Berth tests');
  await expect(about.getByRole('list', { name: 'Tools' })).toContainText('greet');
  await expect(about.getByRole('list', { name: 'Tools' })).toContainText('token-length');
  await expect(about.getByRole('list', { name: 'Prompts' })).toContainText('welcome');

  // The required token is missing: the review says so and Install waits.
  const install = dialog.getByRole('button', { name: 'Install' });
  await expect(dialog.getByLabel('API token (required)')).toHaveAttribute('type', 'password');
  await expect(dialog.getByRole('alert').filter({ hasText: 'API token is required' })).toBeVisible();
  await expect(install).toBeDisabled();

  await dialog.getByLabel('API token (required)').fill(SECRET);
  await dialog.getByLabel('Greeting').fill('Ahoy');
  const review = dialog.getByLabel('Launch review');
  await expect(review).toContainText('--greeting=Ahoy');
  await expect(review).toContainText('GREETER_TOKEN=•••••••• (secret)');
  await expect(review).toContainText(/Node\.js found: \//);
  await expect(review).toContainText(join(berth.configDir, 'bundles', 'berth-greeter', '1.0.0'));
  await expect(install).toBeEnabled();
  await calm(app);
  await dialog.screenshot({ path: join(DOCS_DIR, 'screenshots', 'bundle-install.png') });

  await install.click();
  await expect(dialog).toBeHidden();
  await servers.expectStatus(NAME, 'Ready');
  await expect(servers.card(NAME)).toContainText('berth-greeter/1.0.0/server/index.mjs --greeting=Ahoy');

  const config = (await readJson(join(berth.configDir, 'config.json'))) as {
    mcpServers: Record<string, { env: Record<string, string>; bundle: { name: string } }>;
  };
  expect(config.mcpServers[NAME]?.env).toEqual({ GREETER_TOKEN: REF });
  expect(config.mcpServers[NAME]?.bundle.name).toBe('berth-greeter');
  expect(
    ((await readJson(join(berth.configDir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets,
  ).toEqual({ 'server/Berth Greeter/env/GREETER_TOKEN': SECRET });
  expect(await pageText(app)).not.toContain(SECRET);

  const confirm = await servers.askToRemove(NAME);
  await expect(confirm).toContainText('installed from the bundle berth-greeter 1.0.0');
  await confirm.getByRole('button', { name: `Remove ${NAME}` }).click();
  // The toast comes once the remove call answered: the folder and the secrets went before that answer.
  // The toast's title itself: Radix also reads it out in a live region with the same words.
  await expect(app.getByText(`Removed “${NAME}”`, { exact: true })).toBeVisible();
  await expect(servers.emptyState).toBeVisible();
  expect(existsSync(join(berth.configDir, 'bundles', 'berth-greeter'))).toBe(false);
  expect(
    ((await readJson(join(berth.configDir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets,
  ).toEqual({});
});

test('a dropped bundle that escapes its folder is refused with the reason', async ({ app, berth }) => {
  const servers = new ServersPage(app);
  await servers.show();
  await expect(servers.emptyState).toBeVisible();
  await dropFile(
    app,
    'evil.mcpb',
    writeZip([
      { name: 'manifest.json', data: validManifest() },
      { name: '../../escaped.txt', data: 'gotcha' },
    ]),
  );
  const dialog = app.getByRole('dialog', { name: 'Install an MCP Bundle' });
  await expect(dialog).toContainText('evil.mcpb cannot be installed.');
  await expect(dialog).toContainText(
    '“../../escaped.txt” points outside the bundle’s folder (zip-slip): the bundle is refused',
  );
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  expect(existsSync(join(berth.configDir, 'escaped.txt'))).toBe(false);

  await dropFile(app, 'notes.txt', Buffer.from('hello'));
  await expect(dialog).toContainText('“notes.txt” is not an MCP Bundle: choose a .mcpb file');
});
