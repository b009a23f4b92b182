import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { calm, chatTest, DOCS_DIR, expect, toolNamed } from './support/berth';

// A tool call whose MCP task runs on (the task-background fixture: it works
// until the test writes its file) does not hold the conversation: after
// Berth's short wait the model gets its immediate answer and the turn ends,
// the person chats on, and the task's end comes in as a card they send on.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'task-background.mjs');
const TOOL = 'until-released';

chatTest.describe('a task that runs in the background', () => {
  chatTest.use({ initialConfig: { mcpServers: { jobs: { command: process.execPath, args: [FIXTURE] } } } });

  chatTest(
    'lets the chat go on, then brings its result in as a card sent to the model once',
    async ({ app, fakeLlm }) => {
      const dir = await mkdtemp(join(tmpdir(), 'berth-e2e-release-'));
      const file = join(dir, 'crawl');
      try {
        fakeLlm.script([
          toolNamed(TOOL, { file }),
          { text: 'The crawl runs in the background.' },
          { text: 'Yes, I am still here.' },
          { text: 'The crawl is done: 214 pages.' },
        ]);
        const chat = new ChatPage(app);
        await chat.waitForServer('jobs');
        await chat.show();
        await chat.newConversation();
        await chat.send('Crawl example.org');
        const dialog = new PendingDialog(app);
        await dialog.expectKind('tool-call');
        await dialog.allow('Allow once');
        await dialog.expectClosed();

        // Berth's few seconds pass, the model answers, and the turn is over while the task works.
        const card = chat.toolCard(TOOL);
        await expect(card).toContainText('In the background', { timeout: 30_000 });
        await expect(card).toContainText('Runs in the background');
        await expect(chat.assistantMessages().last()).toContainText('The crawl runs in the background.');
        await chat.waitForIdle();
        await expect(chat.taskLine(card)).toContainText('Working');

        await chat.send('Are you still there?');
        await expect(chat.assistantMessages().last()).toContainText('Yes, I am still here.');
        await chat.waitForIdle();

        await writeFile(`${file}.part`, '214 pages crawled\nNo broken links.');
        await rename(`${file}.part`, file);
        const finished = app.getByRole('region', { name: `Background task of ${TOOL}`, exact: true });
        await expect(finished).toContainText(`Task finished: ${TOOL}`, { timeout: 15_000 });
        await expect(finished).toContainText('214 pages crawled');
        await expect(finished).toContainText('Completed');
        await finished.getByRole('button', { name: 'Show the result', exact: true }).click();
        await expect(finished).toContainText('No broken links.');
        await expect(fakeLlm.requests).toHaveLength(3);

        await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
        await finished.scrollIntoViewIfNeeded();
        for (const scheme of ['light', 'dark'] as const) {
          await app.emulateMedia({ colorScheme: scheme });
          await calm(app);
          await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `background-task-finished-${scheme}.png`) });
        }
        await app.emulateMedia({ colorScheme: 'light' });

        await finished.getByRole('button', { name: 'Send to the model', exact: true }).click();
        await expect(chat.assistantMessages().last()).toContainText('The crawl is done: 214 pages.');
        await expect(finished).toContainText('Sent to the model');
        await expect(finished.getByRole('button', { name: 'Send to the model' })).toHaveCount(0);
        const sent = JSON.stringify(fakeLlm.requests[3]?.body?.messages.at(-1)?.content ?? '');
        expect(sent).toContain('[Berth] The background task');
        expect(sent).toContain('released: 214 pages crawled');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
