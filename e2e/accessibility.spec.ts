import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { LogsPage } from './pages/logs-page';
import { PendingDialog } from './pages/pending-dialog';
import { RootsPage } from './pages/roots-page';
import { ServersPage } from './pages/servers-page';
import { SettingsPage } from './pages/settings-page';
import { TasksPage } from './pages/tasks-page';
import { chatTest, everythingServerConfig, expect, test, toolNamed } from './support/berth';

// An axe-core scan of every main view, in both themes: any serious or critical violation fails.
// Nothing is excluded but the inside of MCP App frames (a server's own HTML, not Berth's UI).

type Finding = { view: string; text: string };

const MAX_NODES = 6;

/** axe's "Fix any of the following:\n  <reason>" cut to the reason. */
function firstReason(summary: string | undefined): string {
  const lines = (summary ?? '').split('\n').map((l) => l.trim());
  return lines.find((l) => l !== '' && !/^Fix (any|all) of the following:$/.test(l)) ?? '';
}

/** Scans the page as it is now and records serious/critical violations under `view`. */
async function scan(app: Page, view: string, findings: Finding[]): Promise<void> {
  // Let transitions (dialog fade-in, tab switches) settle, so colours are measured at rest.
  await app.waitForTimeout(250);
  const result = await new AxeBuilder({ page: app })
    // MCP App frames hold a third-party server's HTML, which Berth does not author.
    .exclude('.app-frame-iframe-slot iframe')
    .analyze();
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    // A few nodes per rule say enough (a log has hundreds of alike rows); the count says how many more.
    const shown = v.nodes.slice(0, MAX_NODES).map((n) => `    ${n.target.join(' ')} ${n.html.slice(0, 100)}\n      ${firstReason(n.failureSummary)}`);
    if (v.nodes.length > MAX_NODES) shown.push(`    …and ${v.nodes.length - MAX_NODES} more`);
    findings.push({ view, text: `[${v.impact}] ${v.id}: ${v.help}\n${shown.join('\n')}` });
  }
}

function report(findings: Finding[]): string {
  return `${findings.length} serious or critical violation(s):\n\n${findings.map((f) => `${f.view} — ${f.text}`).join('\n\n')}`;
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${scheme}`, () => {
    test.describe('no servers', () => {
      test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });
      test('the empty Servers view', async ({ app }) => {
        const findings: Finding[] = [];
        await expect(new ServersPage(app).emptyState.or(app.getByRole('heading', { name: /Start a conversation|New conversation/ })).first()).toBeVisible();
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

        fakeLlm.script([toolNamed('echo', { message: 'hello' }, 'Let me echo that.'), { text: 'Done: **hello**.' }, toolNamed('get-sum', { a: 1, b: 2 })]);
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
