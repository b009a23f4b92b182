import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { calm, chatTest, DOCS_DIR, expect, toolNamed } from './support/berth';

// A 20 MiB tool result, through an MCP task, in a real browser window: the
// window stays connected the whole time (it used to be dropped with 1013 and
// flicker Connecting/Disconnected), the turn ends (no stuck Stop), the card
// shows the start, and the whole result opens, read from the host in pages.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'huge-result.mjs');
const line = (n: number): string => `line ${String(n).padStart(7, '0')} ${'.'.repeat(36)}`;
const LINES = Math.floor((20 * 1024 * 1024) / 50);

chatTest.describe('a 20 MiB tool result', () => {
  chatTest.use({ initialConfig: { mcpServers: { huge: { command: process.execPath, args: [FIXTURE] } } } });

  chatTest('keeps the window connected, ends the turn, and opens whole', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed('huge_task_log', {}), { text: 'That is a long log.' }]);
    const chat = new ChatPage(app);
    await chat.waitForServer('huge');
    await chat.show();
    await chat.newConversation();
    // Every state the connection pill shows from here on.
    await app.evaluate(() => {
      const pill = document.querySelector('.connection-pill');
      const seen: string[] = [pill?.textContent ?? ''];
      (window as unknown as { berthConnection: string[] }).berthConnection = seen;
      if (pill !== null)
        new MutationObserver(() => seen.push(pill.textContent ?? '')).observe(pill, {
          childList: true,
          characterData: true,
          subtree: true,
        });
    });
    await chat.send('Read the whole log');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectClosed();
    await chat.waitForIdle(90_000);
    await expect(app.getByText('That is a long log.', { exact: true })).toBeVisible();
    const states = await app.evaluate(() => (window as unknown as { berthConnection: string[] }).berthConnection);
    expect(new Set(states)).toEqual(new Set(['Connected']));

    const card = chat.toolCard('huge_task_log');
    const note = card.getByRole('note', { name: 'Preview of a long result', exact: true });
    await expect(note).toContainText('The start of a long result: 20,971,499 characters in 1 part');
    await expect(card.getByText('Showing the first 20,000 of 20,971,499 characters.', { exact: true })).toBeVisible();
    await card
      .getByRole('note', { name: 'Cut for the model', exact: true })
      .getByRole('button', { name: 'Open the whole result', exact: true })
      .click();
    const viewer = app.getByRole('dialog', { name: 'Whole result of huge_task_log', exact: true });
    await expect(viewer).toContainText('20,971,499 characters, 419,430 lines', { timeout: 60_000 });
    await viewer.getByRole('region', { name: 'Whole result', exact: true }).evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect(viewer.getByText(line(LINES), { exact: true })).toBeVisible();
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `huge-result-opened-${scheme}.png`) });
    }
    await app.emulateMedia({ colorScheme: 'light' });
    await app.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(app.locator('.connection-pill')).toHaveText('Connected');
  });
});
