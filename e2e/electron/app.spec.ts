import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from '../pages/chat-page';
import { PendingDialog } from '../pages/pending-dialog';
import { ServersPage } from '../pages/servers-page';
import { packageBinEntry, toolNamed } from '../support/berth';
import { ELECTRON_UNAVAILABLE, expect, test } from './support/electron-app';
import { ROOT } from './support/electron-binary';

// The desktop app end to end: the same renderer as browser mode, but through
// Electron's main process, preload bridge and berth:// protocol. Skipped,
// with the reason in the report, where there is no Electron binary.
test.skip(ELECTRON_UNAVAILABLE !== undefined, ELECTRON_UNAVAILABLE);

const EVERYTHING = packageBinEntry('@modelcontextprotocol/server-everything', 'mcp-server-everything');
const MODERN_ECHO = join(ROOT, 'e2e', 'fixtures', 'servers', 'modern-echo.mjs');

/** Whether a process is still there (signal 0 only checks). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

test.describe('Berth in Electron', () => {
  test('launches into the servers view with the bridge connected', async ({ desktop }) => {
    await expect(desktop.window).toHaveTitle(/Berth/);
    await expect(new ServersPage(desktop.window).emptyState).toBeVisible();
    // The renderer is served from Berth's own berth:// protocol (main/app-protocol.ts), never file:// or http://.
    expect(new URL(desktop.window.url()).protocol).toBe('berth:');
    const isPackaged = await desktop.app.evaluate(({ app }) => app.isPackaged);
    expect(isPackaged).toBe(false);
  });

  test('adds a server through the form and runs it', async ({ desktop }) => {
    const servers = new ServersPage(desktop.window);
    const form = await servers.openAddForm();
    await form.fill({ name: 'modern', command: process.execPath, args: [MODERN_ECHO] });
    await form.submit();
    await expect(form.dialog).toBeHidden();
    await servers.expectStatus('modern', 'Ready');
    const saved = JSON.parse(await readFile(join(desktop.configDir, 'config.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string }>;
    };
    expect(saved.mcpServers.modern?.command).toBe(process.execPath);
  });

  test.describe('with server-everything configured', () => {
    test.use({
      initialConfig: { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
    });

    test('asks for consent before a tool call and runs it once allowed', async ({ desktop, fakeLlm }) => {
      fakeLlm.script([toolNamed('echo', { message: 'from Electron' }), { text: 'The tool said: {{lastToolResult}}' }]);
      const chat = new ChatPage(desktop.window);
      await chat.waitForServer('everything');
      await chat.show();
      await chat.newConversation();
      await chat.send('Please echo something');

      const dialog = new PendingDialog(desktop.window);
      await dialog.expectKind('tool-call');
      await expect(dialog.root).toContainText('everything');
      await dialog.allow('Allow once');
      await dialog.expectClosed();
      await expect(chat.toolCard('echo')).toContainText('Echo: from Electron');
      await expect(chat.assistantMessages().last()).toContainText('The tool said: Echo: from Electron');
    });

    test('quitting stops the server: no process is left behind', async ({ desktop }) => {
      const servers = new ServersPage(desktop.window);
      await servers.expectStatus('everything', 'Ready');
      const detail = await servers.select('everything');
      await detail.showOverview();
      const facts = detail.overview;
      await expect(facts).toContainText(/PID \d+/);
      const pid = Number(/PID (\d+)/.exec(await facts.innerText())?.[1]);
      expect(isAlive(pid)).toBe(true);

      await desktop.app.close();
      expect(desktop.app.process().exitCode, 'Berth quits cleanly').toBe(0);
      // The server was stopped before Electron exited; a moment for the OS to reap it.
      await expect.poll(() => isAlive(pid), { timeout: 5_000 }).toBe(false);
    });
  });
});
