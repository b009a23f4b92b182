import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { LogsPage } from './pages/logs-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import {
  calm,
  chatTest,
  DOCS_DIR,
  everythingServerConfig,
  expect,
  type FakeAnthropic,
  type FakeTurnSource,
  packageBinEntry,
  test,
  toolNamed,
} from './support/berth';

// The README's pictures, taken from the real app against the real reference server.

// A realistic list: the reference server, the memory server, and one whose command is not installed here.
test.use({
  initialConfig: {
    mcpServers: {
      everything: everythingServerConfig(),
      memory: {
        command: process.execPath,
        args: [packageBinEntry('@modelcontextprotocol/server-memory', 'mcp-server-memory')],
        env: { MEMORY_FILE_PATH: join(tmpdir(), 'berth-screenshots-memory.jsonl') },
      },
      git: { command: 'uvx', args: ['mcp-server-git', '--repository', '.'] },
    },
  },
  viewport: { width: 1280, height: 800 },
});

async function serversWithDetail(app: Page): Promise<void> {
  const servers = new ServersPage(app);
  await servers.expectStatus('everything', 'Ready');
  await servers.expectStatus('memory', 'Ready');
  await expect(servers.card('git')).toContainText('not found on PATH');
  const detail = await servers.select('everything');
  await detail.showTools();
  const echo = await detail.expandTool('echo');
  await expect(echo.getByRole('table')).toBeVisible();
  await calm(app);
}

test('servers view, light', async ({ app }) => {
  await serversWithDetail(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshot.png') });
});

test.describe('dark', () => {
  test.use({ colorScheme: 'dark' });
  test('servers view, dark', async ({ app }) => {
    await serversWithDetail(app);
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'servers-dark.png') });
  });
});

test('logs view with an expanded trace', async ({ app }) => {
  const servers = new ServersPage(app);
  await servers.expectStatus('everything', 'Ready');
  const detail = await servers.select('everything');
  const logs: LogsPage = await detail.openLogs();
  // server-everything speaks the initialize era: its reply carries the negotiated version and capabilities.
  const reply = logs.traceRow('initialize', 'in');
  await expect(reply).toBeVisible();
  await expect(await logs.expand(reply)).toContainText('"result"');
  await calm(app);
  await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'logs.png') });
});

// The chat and the request dialogs, against the fake model and the reference server.
chatTest.describe('chat and requests', () => {
  chatTest.use({
    initialConfig: {
      mcpServers: {
        everything: everythingServerConfig(),
        memory: {
          command: process.execPath,
          args: [packageBinEntry('@modelcontextprotocol/server-memory', 'mcp-server-memory')],
          env: { MEMORY_FILE_PATH: join(tmpdir(), 'berth-screenshots-memory.jsonl') },
        },
      },
    },
  });

  /** A conversation with one tool call done and a Markdown answer, then `prompt` sent with `next` scripted. */
  async function chatWithHistory(
    app: Page,
    fakeLlm: FakeAnthropic,
    next: FakeTurnSource[],
    prompt: string,
  ): Promise<ChatPage> {
    fakeLlm.script([
      toolNamed('get-sum', { a: 1240, b: 385 }, 'Let me add those with the **get-sum** tool.'),
      {
        text: 'The two harbours have **1,625** berths together.\n\n| Harbour | Berths |\n| --- | ---: |\n| Hamburg | 1,240 |\n| Kiel | 385 |\n\nTo keep the total in a script:\n\n```ts\nconst berths = { hamburg: 1240, kiel: 385 };\nconst total = Object.values(berths).reduce((a, b) => a + b, 0);\n```',
      },
      ...next,
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.waitForServer('memory');
    await chat.show();
    await chat.newConversation();
    await chat.send('How many berths do Hamburg (1240) and Kiel (385) have together?');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow for this conversation');
    await expect(chat.assistantMessages().last().getByRole('table')).toBeVisible();
    await chat.waitForIdle();
    if (prompt !== '') await chat.send(prompt);
    return chat;
  }

  chatTest('chat with a tool call and Markdown', async ({ app, fakeLlm }) => {
    await chatWithHistory(app, fakeLlm, [], '');
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'chat.png') });
  });

  chatTest('tool-call consent dialog', async ({ app, fakeLlm }) => {
    await chatWithHistory(
      app,
      fakeLlm,
      [toolNamed('echo', { message: 'Berth 7 is free from 14:00 to 18:00' })],
      'Send the free slot to the harbour master',
    );
    await new PendingDialog(app).expectKind('tool-call');
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'consent.png') });
  });

  chatTest('sampling review dialog', async ({ app, fakeLlm }) => {
    // A server asking for far more than it needs: the review shows the cap Berth applies.
    await chatWithHistory(
      app,
      fakeLlm,
      [toolNamed('trigger-sampling-request', { prompt: 'Suggest a name for a new pier', maxTokens: 100_000 })],
      'Let the server ask the model',
    );
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('sampling');
    await expect(dialog.maxTokensNote).toContainText('capped at 4,096');
    await dialog.root.getByLabel(/Don’t ask again for “everything” this session/).check();
    await expect(dialog.root.getByTestId('session-note')).toBeVisible();
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'sampling.png') });
  });

  chatTest('elicitation form', async ({ app, fakeLlm }) => {
    await chatWithHistory(app, fakeLlm, [toolNamed('trigger-elicitation-request')], 'Let the server ask me');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await dialog.field(/^String(\s*\*| required)?$/).fill('Ada Lovelace');
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'elicitation.png') });
  });

  chatTest('a tool call waiting for your answer', async ({ app, fakeLlm }) => {
    const chat = await chatWithHistory(
      app,
      fakeLlm,
      [toolNamed('trigger-elicitation-request')],
      'Let the server ask me, I will answer later',
    );
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await dialog.root.getByRole('button', { name: 'Later', exact: true }).click();
    await dialog.expectClosed();
    const card = chat.toolCard('trigger-elicitation-request');
    await expect(card).toContainText('Waiting for your answer');
    await expect(card.getByRole('button', { name: 'Answer' })).toBeVisible();
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'waiting-answer.png') });
  });
});

/** server-basic-vanillajs from npm: its get-time tool has an MCP App. */
const APP_SERVER = {
  command: process.execPath,
  args: [packageBinEntry('@modelcontextprotocol/server-basic-vanillajs', 'mcp-server-basic-vanillajs'), '--stdio'],
};

for (const scheme of ['light', 'dark'] as const) {
  chatTest.describe(`an MCP App in the chat, ${scheme}`, () => {
    chatTest.use({ initialConfig: { mcpServers: { clock: APP_SERVER } }, colorScheme: scheme });
    chatTest('the app renders inside its tool card', async ({ app, fakeLlm }) => {
      fakeLlm.script([
        toolNamed('get-time', {}, 'Let me ask the server’s clock.'),
        { text: 'The server’s clock says **{{lastToolResult}}**.' },
      ]);
      const chat = new ChatPage(app);
      await chat.waitForServer('clock');
      await chat.show();
      await chat.newConversation();
      await chat.send('What time is it on the server?');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await dialog.allow('Allow for this conversation');
      await dialog.expectClosed();
      await chat.waitForIdle();
      const ui = chat.toolCard('get-time').frameLocator('iframe').first().frameLocator('iframe').first();
      await expect(ui.locator('#server-time')).toHaveText(/\d{4}-\d{2}-\d{2}T/, { timeout: 30_000 });
      await expect(ui.locator('html')).toHaveAttribute('data-theme', scheme);
      await calm(app);
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `app-${scheme}.png`) });
    });
  });
}
