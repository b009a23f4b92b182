import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { LogsPage } from './pages/logs-page';
import { PendingDialog } from './pages/pending-dialog';
import { RootsPage } from './pages/roots-page';
import { ServersPage } from './pages/servers-page';
import { SettingsPage } from './pages/settings-page';
import { TasksPage } from './pages/tasks-page';
import { scan, report, type Finding } from './support/axe-scan';
import { chatTest, everythingServerConfig, expect, test, toolNamed } from './support/berth';

// An axe-core scan of every main view, in both themes: any serious or critical violation fails.

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${scheme}`, () => {
    test.describe('no servers', () => {
      test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });
      test('the empty Servers view', async ({ app }) => {
        const findings: Finding[] = [];
        await expect(
          new ServersPage(app).emptyState
            .or(app.getByRole('heading', { name: /Start a conversation|New conversation/ }))
            .first(),
        ).toBeVisible();
        await new ServersPage(app).show();
        await expect(new ServersPage(app).emptyState).toBeVisible();
        await scan(app, 'Servers (empty)', findings);
        expect(findings, report(findings)).toEqual([]);
      });
    });

    chatTest.describe('with server-everything', () => {
      chatTest.use({ colorScheme: scheme, initialConfig: { mcpServers: { everything: everythingServerConfig() } } });
      chatTest('every view', async ({ app, fakeLlm }) => {
        chatTest.setTimeout(120_000);
        const findings: Finding[] = [];
        const servers = new ServersPage(app);
        await servers.show();
        await servers.expectStatus('everything', 'Ready');
        const detail = await servers.select('everything');
        for (const tab of ['Tools', 'Overview', 'Roots', 'Resources', 'Apps']) {
          await detail.root.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
          await scan(app, `Servers › everything › ${tab}`, findings);
        }

        fakeLlm.script([
          toolNamed('echo', { message: 'hello' }, 'Let me echo that.'),
          { text: 'Done: **hello**.' },
          toolNamed('get-sum', { a: 1, b: 2 }),
        ]);
        const chat = new ChatPage(app);
        await chat.show();
        await chat.newConversation();
        await chat.send('Echo hello');
        const dialog = new PendingDialog(app);
        await dialog.expectKind('tool-call');
        await scan(app, 'Consent dialog', findings);
        await dialog.allow('Allow once');
        await chat.waitForIdle();
        await expect(chat.toolCard('echo')).toBeVisible();
        await scan(app, 'Chat with a tool call', findings);

        await new TasksPage(app).show();
        await scan(app, 'Tasks', findings);
        await new RootsPage(app).show();
        await scan(app, 'Workspace roots', findings);

        await detailLogs(app);
        await scan(app, 'Logs', findings);

        await new SettingsPage(app).show();
        await scan(app, 'Settings', findings);

        expect(findings, report(findings)).toEqual([]);
      });
    });
  });
}

/** The Logs view with the reference server's lines in it. */
async function detailLogs(app: Page): Promise<void> {
  await app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Logs/ }).click();
  await expect(new LogsPage(app).rows.first()).toBeVisible();
}
