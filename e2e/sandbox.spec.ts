import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxSupport } from '../app/sandbox/sandbox-runtime';
import { ChatPage } from './pages/chat-page';
import { ImportDialog } from './pages/import-dialog';
import { LogsPage } from './pages/logs-page';
import { PendingDialog } from './pages/pending-dialog';
import { DenialNotice, SandboxControls } from './pages/sandbox';
import { ServersPage } from './pages/servers-page';
import type { Page } from '@playwright/test';
import { calm, chatTest as test, DOCS_DIR, expect, toolNamed } from './support/berth';

/** A server that does what a compromised package would, one tool call at a time (here: write outside its roots). */
const HOSTILE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'hostile.mjs');
const support = await sandboxSupport();

test.use({
  initialConfig: { mcpServers: { hostile: { command: process.execPath, args: [HOSTILE] } } },
  viewport: { width: 1280, height: 800 },
});

test.describe('the OS sandbox, as the person uses it', () => {
  test.skip(!support.available, `the sandbox is unavailable here: ${support.reason ?? ''} ${support.install ?? ''}`);

  let outside: string;
  test.beforeEach(async () => {
    // Outside any root and not Berth's: /tmp is read-only inside the sandbox.
    outside = await mkdtemp(join(tmpdir(), 'berth-e2e-outside-'));
  });
  test.afterEach(async () => {
    await rm(outside, { recursive: true, force: true });
  });

  test('turned on in the server form; a write outside its folders is shown with "Allow this folder", which fixes it', async ({
    app,
    fakeLlm,
  }) => {
    const target = join(outside, 'report.txt');
    const servers = new ServersPage(app);
    await servers.expectStatus('hostile', 'Ready');

    // An existing server is offered the sandbox once; the form answers it too.
    const detail = await servers.select('hostile');
    await expect(detail.root.getByRole('complementary', { name: 'Sandbox offer' })).toBeVisible();

    const form = await servers.edit('hostile');
    const sandbox = new SandboxControls(form.dialog);
    await expect(sandbox.switch).not.toBeChecked();
    await sandbox.switch.click();
    await expect(sandbox.network).toHaveText('None');
    await sandbox.addDomain('api.github.com');
    await expect(sandbox.network).toHaveText('api.github.com');
    await expect(form.dialog.getByRole('note')).toHaveText(
      'Saving restarts “hostile”: a sandbox applies from a process’s start.',
    );
    await form.dialog.getByRole('heading', { name: 'Sandbox', exact: true }).scrollIntoViewIfNeeded();
    await calm(app);
    await app.screenshot({ path: test.info().outputPath('sandbox-form.png') });
    await form.submit();
    await expect(form.dialog).toBeHidden();

    await expect(servers.card('hostile').getByText('Sandboxed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await servers.expectStatus('hostile', 'Ready');
    await expect(detail.root.getByRole('complementary', { name: 'Sandbox offer' })).toBeHidden();
    const logs: LogsPage = await detail.openLogs();
    await expect(
      logs.rowsFrom('host').filter({ hasText: 'runs in the sandbox: network only to: api.github.com' }).first(),
    ).toBeVisible({ timeout: 30_000 });

    // The model asks the server to write outside its folders: the sandbox refuses, and Berth says so.
    fakeLlm.script([
      toolNamed('attempt', { action: 'write', path: target }),
      { text: 'It failed.' },
      toolNamed('attempt', { action: 'write', path: target }),
      { text: 'Written.' },
    ]);
    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('Write the report');
    const consent = new PendingDialog(app);
    await consent.expectKind('tool-call');
    await consent.allow('Allow once');
    await expect(chat.assistantMessages().last()).toContainText('It failed.');
    expect(existsSync(target)).toBe(false);

    await servers.show();
    // Seen on the server's own stderr: shown as its claim.
    const denial = `The server reports the sandbox blocked a write to ${target}`;
    const onCard = new DenialNotice(app, servers.card('hostile'), 'hostile');
    await expect(onCard.root).toContainText(denial, { timeout: 30_000 });
    await expect(
      detail.root.getByRole('group', { name: 'Blocked by the sandbox in hostile', exact: true }),
    ).toContainText(denial);
    await dismissToasts(app);
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'sandbox-denied.png') });

    // The log says it too, with the same one action.
    const logsAgain = await detail.openLogs();
    const line = logsAgain
      .rowsFrom('host')
      .filter({ hasText: `the server reports the sandbox blocked a write to ${target}` })
      .first();
    await expect(line).toBeVisible();
    await expect(line.getByRole('button', { name: 'Allow this folder', exact: true })).toBeVisible();

    // One click (and a confirmation naming the folder and the restart) allows it.
    await servers.show();
    await onCard.allow('Allow this folder', outside);
    await expect(
      app
        .getByRole('status')
        .filter({ hasText: `“hostile” may now change ${outside}` })
        .first(),
    ).toBeVisible();
    await expect(onCard.root).toBeHidden();
    await servers.expectStatus('hostile', 'Ready');
    await detail.root.getByRole('tab', { name: 'Sandbox', exact: true }).click();
    await expect(detail.root.getByTestId('sandbox-policy-write')).toContainText(outside);
    await expect(detail.root.getByTestId('sandbox-policy-network')).toHaveText('api.github.com');
    await expect(detail.root.getByTestId('sandbox-state')).toContainText('Sandboxed');
    await dismissToasts(app);
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'sandbox-policy.png') });

    // The same call now works: the folder is the person's to give.
    await chat.show();
    await chat.send('Try again');
    await consent.expectKind('tool-call');
    await consent.allow('Allow once');
    await expect(chat.assistantMessages().last()).toContainText('Written.');
    expect(existsSync(target)).toBe(true);
  });

  test.describe('dark', () => {
    test.use({ colorScheme: 'dark' });

    test('an import review has the sandbox on by default, and the imported server runs in it', async ({ app }) => {
      const servers = new ServersPage(app);
      await servers.expectStatus('hostile', 'Ready');
      const importer = await ImportDialog.open(app);
      await importer.paste(
        'Claude Desktop (claude_desktop_config.json)',
        JSON.stringify({ mcpServers: { boxed: { command: process.execPath, args: [HOSTILE, '--imported'] } } }),
      );
      const choice = importer.dialog.getByRole('switch', {
        name: 'Run the imported local servers in the OS sandbox',
        exact: true,
      });
      await expect(choice).toBeChecked();
      await choice.scrollIntoViewIfNeeded();
      await calm(app);
      await app.screenshot({ path: test.info().outputPath('import-review-dark.png') });
      await importer.importButton().click();
      await expect(importer.dialog).toBeHidden();

      // Imported servers are added turned off; turned on, it starts in the sandbox from its first start.
      await servers.expectStatus('boxed', 'Stopped');
      await expect(servers.card('boxed').getByText('Sandboxed', { exact: true })).toBeVisible();
      await app.getByRole('button', { name: 'Turn on boxed' }).click();
      await servers.expectStatus('boxed', 'Ready');
      const detail = await servers.select('boxed');
      // Chosen in the review: no offer later.
      await expect(detail.root.getByRole('complementary', { name: 'Sandbox offer' })).toBeHidden();
      const logs = await detail.openLogs();
      await expect(logs.rowsFrom('host').filter({ hasText: 'runs in the sandbox: no network' }).first()).toBeVisible({
        timeout: 30_000,
      });

      // The server that was there before is offered the sandbox once, in the dark theme too.
      await servers.show();
      const hostile = await servers.select('hostile');
      await expect(hostile.root.getByRole('complementary', { name: 'Sandbox offer' })).toBeVisible();
      await hostile.root.getByRole('tab', { name: 'Sandbox', exact: true }).click();
      await calm(app);
      await app.screenshot({ path: test.info().outputPath('sandbox-offer-dark.png') });
      await hostile.root.getByRole('button', { name: 'Not now', exact: true }).click();
      await expect(hostile.root.getByRole('complementary', { name: 'Sandbox offer' })).toBeHidden();
    });
  });
});

/** Toasts would cover part of a screenshot: close each (Radix repeats their text in a live region, so by button). */
async function dismissToasts(app: Page): Promise<void> {
  const close = app.getByRole('button', { name: 'Dismiss', exact: true });
  // A toast may close by itself between the count and the click: then there is nothing left to press.
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await expect(close).toHaveCount(0);
}
