import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ServersPage } from './pages/servers-page';
import { expect, test } from './support/berth';

const SECRET_ECHO = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'secret-echo.mjs');
const SECRET = 'tok-E2E-S3CRET-7733';
const MASK = '••••••••';
const REF = '${secret:server/echo/env/SECRET_ECHO_TOKEN}';

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

test('a secret typed into the form is kept in the secret store; config.json and the window only see a reference or the mask', async ({
  app,
  berth,
}) => {
  const servers = new ServersPage(app);
  const form = await servers.openAddForm();
  await form.fill({
    name: 'echo',
    command: process.execPath,
    args: [SECRET_ECHO],
    env: [{ key: 'SECRET_ECHO_TOKEN', value: SECRET, secret: true }],
  });
  await form.submit();
  await expect(form.dialog).toBeHidden();
  await servers.expectStatus('echo', 'Ready');

  const config = (await readJson(join(berth.configDir, 'config.json'))) as {
    mcpServers: Record<string, { env: Record<string, string> }>;
  };
  expect(config.mcpServers.echo?.env).toEqual({ SECRET_ECHO_TOKEN: REF });
  expect(
    ((await readJson(join(berth.configDir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets,
  ).toEqual({ 'server/echo/env/SECRET_ECHO_TOKEN': SECRET });

  // The server repeats its token on stderr and in a log notification: the log viewer shows the mask.
  const detail = await servers.select('echo');
  const logs = await detail.openLogs();
  await expect(logs.rowsFrom('stderr').filter({ hasText: 'secret-echo starting with token' }).first()).toContainText(
    MASK,
  );
  await expect(logs.rowsFrom('notification').first()).toContainText(`authenticated with ${MASK}`);
  expect(await pageText(app)).not.toContain(SECRET);

  // Editing shows the mask; saving it back keeps the stored value.
  await servers.show();
  const edit = await servers.edit('echo');
  await expect(edit.field('Variable 1 value')).toHaveValue(MASK);
  expect(await pageText(app)).not.toContain(SECRET);
  await edit.submit();
  await expect(edit.dialog).toBeHidden();
  await servers.expectStatus('echo', 'Ready');
  expect(
    ((await readJson(join(berth.configDir, 'secrets.json'))) as { secrets: Record<string, string> }).secrets,
  ).toEqual({ 'server/echo/env/SECRET_ECHO_TOKEN': SECRET });
  expect(await pageText(app)).not.toContain(SECRET);
});
