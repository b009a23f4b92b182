import { TasksPage } from './pages/tasks-page';
import { expect, test } from './support/berth';

// The Tasks view against the real host. Tasks that run (server-everything's
// simulate-research-query, Berth as receiver) are driven from the chat once the host side lands.

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
