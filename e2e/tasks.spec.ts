import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { TasksPage } from './pages/tasks-page';
import { chatTest, everythingServerConfig, expect, test, toolNamed, type FakeAnthropic } from './support/berth';

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
 * Every status message the card's task line shows, in order, recorded in
 * the page as it changes (the stages last a second each: polling the DOM
 * from the test could miss one on a busy machine).
 */
async function recordTaskMessages(app: Page): Promise<() => Promise<string[]>> {
  await app.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { berthTaskMessages: string[] }).berthTaskMessages = seen;
    new MutationObserver(() => {
      const message = document.querySelector('[data-task-status] .tool-task-message')?.textContent?.trim();
      if (message && seen.at(-1) !== message) seen.push(message);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => app.evaluate(() => [...(window as unknown as { berthTaskMessages: string[] }).berthTaskMessages]);
}

chatTest.describe('a tool call that runs as a task', () => {
  chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  chatTest('shows the server’s messages on its card and in the Tasks view, then the model gets the result', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed(RESEARCH, { topic: 'tidal power' }), { text: 'Here is what I found: {{lastToolResult}}' }]);
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
    await expect(tasks.running).toHaveCount(0);
    await expect(tasks.navButton).toHaveAccessibleName('Tasks');
    await chat.show();
    await expect(card).toContainText('Done');
    await expect(chat.taskLine(card)).toContainText('Completed');
    await expect(chat.assistantMessages().last()).toContainText('Here is what I found: # Research Report: tidal power');
    await fakeLlm.waitForRequests(2);
    expect(toolResultsSent(fakeLlm, 1)).toContain('Stage 4: Generating report');
    // In the server's order, without one it did not send.
    const seen = await messages();
    expect(seen.every((m) => STAGES.includes(m)), seen.join(' | ')).toBe(true);
    expect(seen.map((m) => STAGES.indexOf(m))).toEqual([...seen.map((m) => STAGES.indexOf(m))].sort());

    await tasks.show();
    await tasks.clearFinished.click();
    await expect(app.getByRole('heading', { name: 'No tasks' })).toBeVisible();
  });
});
