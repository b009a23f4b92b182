import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { TasksPage } from './pages/tasks-page';
import {
  calm,
  chatTest,
  DOCS_DIR,
  everythingServerConfig,
  expect,
  test,
  toolNamed,
  type FakeAnthropic,
} from './support/berth';

// The Tasks view and the tool card's task line against the real host and the
// real reference server: its `simulate-research-query` must run as a task
// (taskSupport "required"), goes through four one-second stages, each with
// its own status message, and with `ambiguous: true` stops at the third to
// ask the person which interpretation they mean (input_required).

const RESEARCH = 'simulate-research-query';
/** The status messages server-everything reports, one stage a second. */
const STAGES = ['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...'];

test.describe('tasks', () => {
  test('the Tasks view explains what tasks are when there are none, reached by keyboard', async ({ app }) => {
    const tasks = new TasksPage(app);
    await tasks.navButton.focus();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('heading', { name: 'Tasks', level: 1 })).toBeVisible();
    await expect(tasks.navButton).toHaveAttribute('aria-current', 'page');
    // No running task: the navigation shows no count.
    await expect(tasks.navButton).toHaveAccessibleName('Tasks');
    await expect(app.getByRole('heading', { name: 'No tasks' })).toBeVisible();
    await expect(app.getByText(/Long-running tool calls and requests from servers appear here/)).toBeVisible();
    await expect(tasks.clearFinished).toHaveCount(0);
  });
});

/** Text of every tool_result the model received in request `index` (0-based). */
function toolResultsSent(fake: FakeAnthropic, index: number): string {
  return JSON.stringify(fake.requests[index]?.body?.messages.at(-1)?.content ?? '');
}

/** Starts a conversation, sends `prompt`, and allows the call the model makes. */
async function askAndAllow(app: Page, prompt: string): Promise<ChatPage> {
  const chat = new ChatPage(app);
  await chat.waitForServer('everything');
  await chat.show();
  await chat.newConversation();
  await chat.send(prompt);
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  return chat;
}

/**
 * Every status message the card’s task line shows while the task works, in order, recorded in
 * the page as it changes (the stages last a second each: polling the DOM
 * from the test could miss one on a busy machine).
 */
async function recordTaskMessages(app: Page): Promise<() => Promise<string[]>> {
  await app.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { berthTaskMessages: string[] }).berthTaskMessages = seen;
    new MutationObserver(() => {
      const message = document.querySelector('[data-task-status="working"] .tool-task-message')?.textContent?.trim();
      if (message && seen.at(-1) !== message) seen.push(message);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => app.evaluate(() => [...(window as unknown as { berthTaskMessages: string[] }).berthTaskMessages]);
}

chatTest.describe('a tool call that runs as a task', () => {
  chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  chatTest(
    'shows the server’s messages on its card and in the Tasks view, then the model gets the result',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([
        toolNamed(RESEARCH, { topic: 'tidal power' }),
        { text: 'Here is what I found: {{lastToolResult}}' },
      ]);
      const messages = await recordTaskMessages(app);
      const chat = await askAndAllow(app, 'Research tidal power for me');

      const card = chat.toolCard(RESEARCH);
      const line = chat.taskLine(card);
      await expect(line).toContainText('Working');
      // The server's messages change on the card as its stages go by.
      await expect.poll(async () => (await messages()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

      const tasks = new TasksPage(app);
      await expect(tasks.navButton).toHaveAccessibleName(/1 running/);
      await tasks.show();
      const row = tasks.running.getByRole('listitem', { name: `${RESEARCH} on everything`, exact: true });
      await expect(row).toContainText('everything');
      await expect(row).toContainText(RESEARCH);
      await expect(row).toContainText('Research tidal power for me');
      await expect(row.getByRole('button', { name: 'Cancel task' })).toBeVisible();

      // Done: the row moves to Finished, the card shows the result, the reply goes on with it.
      const done = tasks.finished.getByRole('listitem', { name: `${RESEARCH} on everything`, exact: true });
      await expect(done).toContainText('Completed', { timeout: 15_000 });
      // The server keeps its last step's words: said as such, not as what the task still does.
      await expect(done).toContainText('Last update: Generating report...');
      await expect(tasks.running).toHaveCount(0);
      await expect(tasks.navButton).toHaveAccessibleName('Tasks');
      await chat.show();
      await expect(card).toContainText('Done');
      await expect(chat.taskLine(card)).toContainText('Completed');
      await expect(chat.assistantMessages().last()).toContainText(
        'Here is what I found: # Research Report: tidal power',
      );
      await fakeLlm.waitForRequests(2);
      expect(toolResultsSent(fakeLlm, 1)).toContain('Stage 4: Generating report');
      // In the server's order, without one it did not send.
      const seen = await messages();
      expect(
        seen.every((m) => STAGES.includes(m)),
        seen.join(' | '),
      ).toBe(true);
      expect(seen.map((m) => STAGES.indexOf(m))).toEqual([...seen.map((m) => STAGES.indexOf(m))].sort());

      await tasks.show();
      await tasks.clearFinished.click();
      await expect(app.getByRole('heading', { name: 'No tasks' })).toBeVisible();
    },
  );

  chatTest(
    '“Cancel task” on the card cancels it on the server; the card, the Tasks view and the model say so',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([toolNamed(RESEARCH, { topic: 'wave energy' }), { text: 'It ended: {{lastToolResult}}' }]);
      const chat = await askAndAllow(app, 'Research wave energy');
      const card = chat.toolCard(RESEARCH);
      const line = chat.taskLine(card);
      // Cancelled while its stages run (four seconds in all).
      await expect(line).toContainText('Working');
      await line.getByRole('button', { name: 'Cancel task', exact: true }).click();
      await expect(line).toContainText('Cancelled');
      await expect(line).toContainText('cancelled by you');
      await expect(line.getByRole('button', { name: 'Cancel task' })).toHaveCount(0);
      // Not an error the tool reported: the person cancelled its task.
      await expect(card).toContainText('Its task was cancelled before it finished.');
      await expect(card).not.toContainText('The tool reported an error');

      await fakeLlm.waitForRequests(2);
      const sent = toolResultsSent(fakeLlm, 1);
      expect(sent).toContain(`the task of tool '${RESEARCH}' on server 'everything' was cancelled (cancelled by you)`);
      expect(sent).toContain('"is_error":true');
      await expect(chat.assistantMessages().last()).toContainText('It ended:');

      const tasks = new TasksPage(app);
      await tasks.show();
      await expect(tasks.running).toHaveCount(0);
      const row = tasks.finished.getByRole('listitem', { name: `${RESEARCH} on everything`, exact: true });
      await expect(row).toContainText('Cancelled');
      await expect(row).toContainText('cancelled by you');
      await expect(row.getByRole('button', { name: 'Cancel task' })).toHaveCount(0);
    },
  );

  chatTest(
    'a task that needs the person’s answer waits for it on its card; the answer completes the task',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([
        toolNamed(RESEARCH, { topic: 'python', ambiguous: true }),
        { text: 'Found: {{lastToolResult}}' },
      ]);
      const chat = await askAndAllow(app, 'Research python');
      const dialog = new PendingDialog(app);
      // The server asks which interpretation, with the question it queued for the task.
      await dialog.expectKind('elicitation');
      await expect(dialog.root).toContainText('The research query "python" could have multiple interpretations');
      await dialog.root.getByRole('button', { name: 'Later', exact: true }).click();
      await dialog.expectClosed();

      const card = chat.toolCard(RESEARCH);
      await expect(card).toContainText('Waiting for your answer');
      await expect(chat.taskLine(card)).toContainText('Found multiple interpretations for "python"');
      await expect(card.getByRole('button', { name: 'Answer' })).toHaveCount(1);
      await card.getByRole('button', { name: 'Answer' }).click();
      await dialog.expectKind('elicitation');
      await dialog.field(/^Clarification/).selectOption({ label: 'Python programming language' });
      await dialog.button('Accept').click();
      await dialog.expectClosed();

      await expect(card).toContainText('Done', { timeout: 15_000 });
      await expect(chat.taskLine(card)).toContainText('Completed');
      await expect(card).toContainText('# Research Report: python (programming)');
      await fakeLlm.waitForRequests(2);
      expect(toolResultsSent(fakeLlm, 1)).toContain('After receiving clarification (\\"programming\\")');
    },
  );

  chatTest(
    '“Show in chat” opens the task’s conversation at its card; Cancel in the Tasks view withdraws its question',
    async ({ app, fakeLlm }) => {
      // A task that waits for an answer stays running as long as the test needs.
      fakeLlm.script([
        toolNamed(RESEARCH, { topic: 'python', ambiguous: true }),
        { text: 'Ended: {{lastToolResult}}' },
      ]);
      const chat = await askAndAllow(app, 'Research python, I will answer later');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('elicitation');
      await dialog.root.getByRole('button', { name: 'Later', exact: true }).click();
      await dialog.expectClosed();
      await expect(chat.toolCard(RESEARCH)).toContainText('Waiting for your answer');
      // Somewhere else: another conversation.
      await chat.newConversation();
      await expect(chat.toolCard(RESEARCH)).toHaveCount(0);

      const tasks = new TasksPage(app);
      await tasks.show();
      const row = tasks.running.getByRole('listitem', { name: `${RESEARCH} on everything`, exact: true });
      await expect(row).toContainText('Needs your answer');
      await expect(row).toContainText('Research python, I will answer later');
      await tasks.showInChat(row);
      const card = chat.toolCard(RESEARCH);
      await expect(card).toBeFocused();
      await expect(app.getByRole('heading', { name: 'Research python, I will answer later', level: 2 })).toBeVisible();

      await tasks.show();
      await tasks.cancel(row);
      const ended = tasks.finished.getByRole('listitem', { name: `${RESEARCH} on everything`, exact: true });
      await expect(ended).toContainText('Cancelled');
      // Its question goes with it: nothing is left waiting in the tray.
      await expect(app.getByTestId('pending-tray')).toHaveAccessibleName('Requests: nothing waiting');
      await fakeLlm.waitForRequests(2);
      expect(toolResultsSent(fakeLlm, 1)).toContain('was cancelled (cancelled by you)');
    },
  );
});

// The README's pictures of tasks, from the real app against the reference server.
chatTest.describe('screenshots of tasks', () => {
  chatTest.use({
    initialConfig: { mcpServers: { everything: everythingServerConfig() } },
    viewport: { width: 1280, height: 800 },
  });

  chatTest(
    'a card with a running task, and the Tasks view with a running and a finished task',
    async ({ app, fakeLlm }) => {
      fakeLlm.script([
        toolNamed(RESEARCH, { topic: 'tidal power' }, 'I will start a research task on **tidal power**.'),
        { text: 'The research task finished: tidal power was gathered, analysed and synthesised in four stages.' },
        toolNamed(RESEARCH, { topic: 'python', ambiguous: true }),
        { text: 'Ended: {{lastToolResult}}' },
      ]);
      const chat = await askAndAllow(app, 'Research tidal power for me');
      const card = chat.toolCard(RESEARCH);
      await expect(chat.taskLine(card)).toContainText(/Working.*(Analyzing content|Synthesizing findings)/);
      await calm(app);
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'task-card.png') });
      await expect(card).toContainText('Done', { timeout: 15_000 });
      await chat.waitForIdle();

      await chat.send('Now research python');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await dialog.allow('Allow once');
      await dialog.expectKind('elicitation');
      await dialog.root.getByRole('button', { name: 'Later', exact: true }).click();
      await dialog.expectClosed();
      const tasks = new TasksPage(app);
      await tasks.show();
      await expect(tasks.running.getByRole('listitem')).toHaveCount(1);
      await expect(tasks.finished.getByRole('listitem')).toHaveCount(1);
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'tasks.png') });
    },
  );
});
