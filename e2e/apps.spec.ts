import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import { chatTest, expect, packageBinEntry, toolNamed } from './support/berth';

// MCP Apps against the real example servers from npm: the model calls the
// tool, the server's UI renders in the tool card (inside the sandbox proxy on
// another origin), and what the app does goes through Berth's rules.

function appServer(pkg: string, bin: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [packageBinEntry(pkg, bin), '--stdio'] };
}

const VANILLA = appServer('@modelcontextprotocol/server-basic-vanillajs', 'mcp-server-basic-vanillajs');
/** Our fixture whose app tries every way out of its sandbox and writes down what happened. */
const HOSTILE = {
  command: process.execPath,
  args: [join(import.meta.dirname, 'fixtures', 'servers', 'hostile-app.mjs')],
};
const REACT = appServer('@modelcontextprotocol/server-basic-react', 'mcp-server-basic-react');

/** The app's own document: the card's frame is the sandbox proxy, the app is the frame inside it. */
function appDocument(card: Locator): FrameLocator {
  return card.frameLocator('iframe').first().frameLocator('iframe').first();
}

/** Asks for the time; the model calls get-time and the person allows it once. */
async function askForTheTime(app: Page, server: string): Promise<ChatPage> {
  const chat = new ChatPage(app);
  await chat.waitForServer(server);
  await chat.show();
  await chat.newConversation();
  await chat.send('What time is it on the server?');
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  return chat;
}

chatTest.describe('an MCP App (server-basic-vanillajs)', () => {
  chatTest.use({ initialConfig: { mcpServers: { basic: VANILLA } } });

  chatTest(
    'renders in the card, calls its server under consent, follows the theme and comes back after a reload',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed('get-time'), { text: 'The server says {{lastToolResult}}' }]);
      const chat = await askForTheTime(app, 'basic');
      await chat.waitForIdle();

      const card = chat.toolCard('get-time');
      const ui = appDocument(card);
      const time = ui.locator('#server-time');
      // The app got the tool result: it shows the time the server returned.
      await expect(time).toHaveText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });
      const first = await time.textContent();

      // A button inside the app calls get-time itself: the same consent, said to come from the app.
      await ui.getByRole('button', { name: 'Get Server Time' }).click();
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await expect(app.getByRole('dialog')).toContainText('from the app in this card');
      await app.waitForTimeout(5); // the new time must differ from the first by at least a millisecond
      await dialog.allow('Allow once');
      await dialog.expectClosed();
      await expect(time).not.toHaveText(first ?? '', { timeout: 15_000 });
      await expect(time).toHaveText(/\d{4}-\d{2}-\d{2}T/);

      // Berth's light/dark reaches the app as host context.
      await app.emulateMedia({ colorScheme: 'light' });
      await expect(ui.locator('html')).toHaveAttribute('data-theme', 'light');
      await app.emulateMedia({ colorScheme: 'dark' });
      await expect(ui.locator('html')).toHaveAttribute('data-theme', 'dark');

      // After a reload the card re-renders the app from the saved result.
      await app.reload();
      const reopened = new ChatPage(app);
      await reopened.show();
      await reopened.conversations.getByRole('listitem').first().getByRole('button').first().click();
      const again = appDocument(reopened.toolCard('get-time'));
      await expect(again.locator('#server-time')).toHaveText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });
    },
  );

  chatTest(
    'a message the app proposes waits above the composer for the person; its log lands in the server log',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed('get-time'), { text: 'Here you go.' }]);
      const chat = await askForTheTime(app, 'basic');
      await chat.waitForIdle();
      const ui = appDocument(chat.toolCard('get-time'));
      await expect(ui.locator('#server-time')).toHaveText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });

      await ui.locator('#message-text').fill('Please summarise the time.');
      await ui.getByRole('button', { name: 'Send Message' }).click();
      const proposal = app.getByRole('group', { name: /Message proposed by the app of basic/ });
      await expect(proposal.getByRole('textbox', { name: 'Proposed message' })).toHaveValue(
        'Please summarise the time.',
      );
      // Nothing was sent by itself: the model got one request per turn step so far.
      expect(fakeLlm.requests.length).toBe(2);
      await proposal.getByRole('button', { name: /Drop/ }).click();
      await expect(proposal).toHaveCount(0);
      expect(fakeLlm.requests.length).toBe(2);

      await ui.locator('#log-text').fill('hello from the app');
      await ui.getByRole('button', { name: 'Send Log' }).click();
      const servers = new ServersPage(app);
      await servers.show();
      const detail = await servers.select('basic');
      const logs = await detail.openLogs();
      await expect(logs.rowsFrom('app').filter({ hasText: 'hello from the app' })).toHaveCount(1);
    },
  );
});

chatTest.describe('an MCP App built with React (server-basic-react)', () => {
  chatTest.use({ initialConfig: { mcpServers: { react: REACT } } });

  chatTest('renders in the card and its button calls the server under consent', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed('get-time'), { text: 'The server says {{lastToolResult}}' }]);
    const chat = await askForTheTime(app, 'react');
    await chat.waitForIdle();
    const ui = appDocument(chat.toolCard('get-time'));
    const button = ui.getByRole('button', { name: /Get Server Time/i });
    await expect(button).toBeVisible({ timeout: 30_000 });
    await button.click();
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await expect(app.getByRole('dialog')).toContainText('from the app in this card');
    await dialog.allow('Allow once');
    await dialog.expectClosed();
    await expect(ui.getByText(/\d{4}-\d{2}-\d{2}T/).first()).toBeVisible({ timeout: 15_000 });
  });
});

chatTest.describe('an app that tries to escape its sandbox, inside Berth', () => {
  chatTest.use({ initialConfig: { mcpServers: { hostile: HOSTILE } } });

  chatTest(
    'cannot reach the bridge, Berth’s document, the network or the top window, and opens no popup',
    async ({ app, fakeLlm }) => {
      const berthUrl = new URL(app.url());
      const berthOrigin = `${berthUrl.protocol}//${berthUrl.host}/`;
      // The app is told where Berth's bridge is; it still must not get in.
      fakeLlm.script([
        toolNamed('hostile_probe', { bridgeUrl: berthOrigin, undeclaredUrl: berthOrigin }),
        { text: 'Done.' },
      ]);
      const chat = new ChatPage(app);
      await chat.waitForServer('hostile');
      await chat.show();
      await chat.newConversation();
      await chat.send('Run the probe');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await dialog.allow('Allow once');
      await dialog.expectClosed();

      const out = appDocument(chat.toolCard('hostile_probe')).locator('#out');
      await expect(out).toContainText('"probes"', { timeout: 30_000 });
      const report = JSON.parse((await out.textContent()) ?? '{}') as { probes: Record<string, string> };
      const { probes } = report;
      expect(probes.websocket).toMatch(/^blocked/);
      expect(probes.parentDocument).toMatch(/^blocked/);
      expect(probes.topDocument).toMatch(/^blocked/);
      expect(probes.openPopup).toMatch(/^blocked/);
      expect(probes.fetchUndeclared).toMatch(/^blocked/);
      expect(probes.imageUndeclared).toMatch(/^blocked/);
      expect(probes.fetchBridge).toMatch(/^blocked/);
      expect(probes.navigateTop).toMatch(/^blocked/);
      expect(probes.navigateParent).toMatch(/^blocked/);
      expect(Object.entries(probes).filter(([, outcome]) => outcome.startsWith('ESCAPED'))).toEqual([]);
      // Top navigation did not happen, and no window opened.
      expect(app.url()).toBe(berthUrl.href);
      expect(app.context().pages()).toHaveLength(1);
      await expect(chat.toolCard('hostile_probe')).toBeVisible();
    },
  );
});
