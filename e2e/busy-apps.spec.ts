import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { chatTest, DOCS_DIR, expect, toolNamed } from './support/berth';

// MCP Apps that behave like real example apps: one sized to its window that
// reports its size every frame, one polling its own tool every 2 s, one
// starting a blob: worker (fixture: e2e/fixtures/servers/busy-apps.mjs).

const BUSY = {
  command: process.execPath,
  args: [join(import.meta.dirname, 'fixtures', 'servers', 'busy-apps.mjs')],
};

/** The app's own document: the card's frame is the sandbox proxy, the app is the frame inside it. */
function appDocument(card: Locator): FrameLocator {
  return card.frameLocator('iframe').first().frameLocator('iframe').first();
}

/** Asks for one of the apps; the model calls its tool and the person allows it once. */
async function showApp(app: Page, tool: string): Promise<ChatPage> {
  const chat = new ChatPage(app);
  await chat.waitForServer('busy');
  await chat.show();
  await chat.newConversation();
  await chat.send(`Show me ${tool}`);
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  await chat.waitForIdle();
  return chat;
}

chatTest.describe('MCP Apps that poll or size themselves', () => {
  chatTest.use({ initialConfig: { mcpServers: { busy: BUSY } } });

  chatTest(
    'an app at height:100vh reporting its size every frame keeps a stable height and stays open',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed('show_wiki'), { text: 'Shown.' }]);
      const chat = await showApp(app, 'show_wiki');
      const card = chat.toolCard('show_wiki');
      const sent = appDocument(card).locator('#sent');
      await expect.poll(async () => Number(await sent.textContent()), { timeout: 30_000 }).toBeGreaterThan(60);
      const frame = card.locator('.app-frame-host');
      const heights: number[] = [];
      for (let sample = 0; sample < 5; sample += 1) {
        heights.push((await frame.boundingBox())?.height ?? 0);
        await app.waitForTimeout(800);
      }
      // Before the fix it lost 2 px a round, down to the 48 px floor.
      expect(new Set(heights).size).toBe(1);
      expect(heights[0]).toBeGreaterThan(200);
      // Hundreds of size reports did not count as a flood.
      expect(Number(await sent.textContent())).toBeGreaterThan(150);
      await expect(card.locator('.app-frame')).toHaveAttribute('data-app-state', 'ready');
    },
  );

  chatTest(
    'an app starting a blob: worker and using eval runs; what its policy refuses is said on the card',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed('show_worker'), { text: 'Shown.' }]);
      const chat = await showApp(app, 'show_worker');
      const card = chat.toolCard('show_worker');
      const ui = appDocument(card);
      await expect(ui.locator('#worker')).toHaveText('worker says 42', { timeout: 30_000 });
      await expect(ui.locator('#eval')).toHaveText('eval says 42');
      await expect(card.getByRole('note', { name: "What the app's security policy refused" })).toContainText(
        'stopped it trying to start a worker from data',
      );
    },
  );

  chatTest(
    'an app polling its own tool asks one question, "Later" keeps it quiet, and allowing it while the card is open runs its calls',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed('show_monitor'), { text: 'Shown.' }]);
      const chat = await showApp(app, 'show_monitor');
      const card = chat.toolCard('show_monitor');
      const ui = appDocument(card);
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await expect(app.getByRole('dialog')).toContainText('Allow the app in this card to run');
      await expect(app.getByRole('dialog')).toContainText('Exactly what the app asked for');
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        await app.emulateMedia({ colorScheme: scheme });
        await app.waitForTimeout(300);
        await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `app-polling-question-${scheme}.png`) });
      }
      await app.emulateMedia({ colorScheme: 'light' });

      // "Later": the question waits in the tray; the app's next polls are refused in words, with no new dialog.
      await dialog.button('Later').click();
      await dialog.expectClosed();
      await expect(ui.locator('#last')).toContainText("already asking the person about this app's call", {
        timeout: 10_000,
      });
      await app.waitForTimeout(2_500);
      await expect(app.getByRole('dialog')).toBeHidden();
      await expect(app.getByTestId('pending-tray').locator('.tray-count')).toHaveText('1');

      // Answered from the tray: allowed while the card is open, its later calls run without asking.
      await app.getByTestId('pending-tray').click();
      await app.locator('.tray-popover .tray-item').first().click();
      await dialog.expectKind('tool-call');
      await dialog.allow('Allow while the card is open');
      await dialog.expectClosed();
      await expect(ui.locator('#last')).toHaveText(/^stats #\d+$/, { timeout: 10_000 });
      const answers = Number(await ui.locator('#answers').textContent());
      await expect
        .poll(async () => Number(await ui.locator('#answers').textContent()), { timeout: 10_000 })
        .toBeGreaterThan(answers + 1);
      await expect(app.getByRole('dialog')).toBeHidden();
      await expect(app.getByTestId('pending-tray').locator('.tray-count')).toHaveCount(0);
    },
  );
});
