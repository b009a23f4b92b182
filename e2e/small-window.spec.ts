import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ServersPage } from './pages/servers-page';
import { type Finding, report, scan } from './support/axe-scan';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { calm, chatTest, DOCS_DIR, everythingServerConfig, expect, test, toolNamed } from './support/berth';

// A 900×600 window: the Servers view shows the list or one server's detail (with Back), and
// no server's name is cut short.

const LONG_NAME = 'project-knowledge-graph';

test.use({
  viewport: { width: 900, height: 600 },
  initialConfig: {
    mcpServers: {
      everything: everythingServerConfig(),
      // Not installed here: it stays in an error state, which is fine for a name on a card.
      [LONG_NAME]: { command: 'uvx', args: ['mcp-server-knowledge-graph'] },
    },
  },
});

/** Whether an element shows its whole text (nothing hidden behind an ellipsis). */
async function fullyShown(element: Locator): Promise<boolean> {
  return element.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width > 0);
}

async function serversReady(app: Page): Promise<ServersPage> {
  const servers = new ServersPage(app);
  await servers.show();
  await servers.expectStatus('everything', 'Ready');
  return servers;
}

test('the Servers view collapses to the list, a server’s detail, and Back', async ({ app }) => {
  const servers = await serversReady(app);
  const detail = app.getByRole('region', { name: `${LONG_NAME} details`, exact: true });

  // The list alone: every name whole, on the cards and in the sidebar.
  await expect(servers.list).toBeVisible();
  await expect(app.getByRole('region', { name: /details$/ })).toBeHidden();
  for (const name of ['everything', LONG_NAME]) {
    expect(await fullyShown(servers.card(name).locator('.server-card-name')), `${name} on its card`).toBe(true);
    expect(
      await fullyShown(servers.sidebarServers.locator(`[data-server="${name}"] .sidebar-server-name`)),
      `${name} in the sidebar`,
    ).toBe(true);
  }

  const findings: Finding[] = [];
  await scan(app, 'Servers list at 900×600', findings);

  // From the keyboard: the card opens the detail in the list's place, and the focus follows.
  await servers.card(LONG_NAME).getByRole('button').first().focus();
  await app.keyboard.press('Enter');
  await expect(detail).toBeVisible();
  await expect(servers.list).toBeHidden();
  await expect(detail.getByRole('heading', { name: LONG_NAME, level: 2 })).toBeFocused();
  expect(await fullyShown(detail.getByRole('heading', { name: LONG_NAME, level: 2 })), 'the detail’s heading').toBe(
    true,
  );

  await scan(app, 'Server detail at 900×600', findings);
  expect(findings, report(findings)).toEqual([]);

  // Back: the list again, with the focus on the card the person came from.
  await detail.getByRole('button', { name: 'Back to servers' }).click();
  await expect(servers.list).toBeVisible();
  await expect(detail).toBeHidden();
  await expect(servers.card(LONG_NAME).getByRole('button').first()).toBeFocused();

  // The sidebar opens a server's detail directly.
  await servers.sidebarServers.getByRole('button', { name: /^everything/ }).click();
  await expect(app.getByRole('region', { name: 'everything details', exact: true })).toBeVisible();
});

test('a wider window shows the list and the detail side by side, without Back', async ({ app }) => {
  await app.setViewportSize({ width: 1280, height: 800 });
  const servers = await serversReady(app);
  await servers.select('everything');
  await expect(servers.list).toBeVisible();
  await expect(app.getByRole('button', { name: 'Back to servers' })).toBeHidden();
});

for (const scheme of ['light', 'dark'] as const) {
  chatTest.describe(scheme, () => {
    chatTest.use({ colorScheme: scheme });
    chatTest(`screenshots at 900×600, ${scheme}`, async ({ app, fakeLlm }, testInfo) => {
      const servers = await serversReady(app);
      await calm(app);
      await app.screenshot({ path: testInfo.outputPath('servers-list.png') });
      await servers.select('everything');
      await calm(app);
      if (scheme === 'light') {
        await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
        await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'small-window.png') });
      }
      await app.screenshot({ path: testInfo.outputPath('servers-detail.png') });
      // The chat with its conversation list, a conversation and a tool call.
      fakeLlm.script([
        toolNamed('echo', { message: 'Berth 7 is free' }, 'Let me echo that.'),
        { text: 'The harbour master has the message: **Berth 7 is free**.' },
      ]);
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();
      await chat.send('Tell the harbour master that berth 7 is free');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await calm(app);
      await app.screenshot({ path: testInfo.outputPath('consent.png') });
      await dialog.allow('Allow once');
      await chat.waitForIdle();
      await calm(app);
      await app.screenshot({ path: testInfo.outputPath('chat.png') });
      for (const view of ['Tasks', 'Workspace roots', 'Logs', 'Settings']) {
        await app
          .getByRole('navigation', { name: 'Main' })
          .getByRole('button', { name: new RegExp(`^${view}`) })
          .click();
        await app.waitForTimeout(400);
        await calm(app);
        await app.screenshot({ path: testInfo.outputPath(`${view.toLowerCase().replace(/ /g, '-')}.png`) });
      }
    });
  });
}
