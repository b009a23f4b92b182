import { expect, type Locator, type Page } from '@playwright/test';

/** The Tasks view: running and finished MCP tasks across servers. */
export class TasksPage {
  readonly running: Locator;
  readonly finished: Locator;
  readonly navButton: Locator;

  constructor(readonly page: Page) {
    this.running = page.getByRole('list', { name: 'Running tasks' });
    this.finished = page.getByRole('list', { name: 'Finished tasks' });
    // Named "Tasks", then "N running" while any task runs.
    this.navButton = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Tasks/ });
  }

  async show(): Promise<void> {
    await this.navButton.click();
    await expect(this.page.getByRole('heading', { name: 'Tasks', level: 1 })).toBeVisible();
  }

  /** A task's row, named "<tool> on <server>" (or "sampling"/"elicitation" for requests a server asked Berth to run). */
  task(subject: string, server: string): Locator {
    return this.page.getByRole('listitem', { name: `${subject} on ${server}`, exact: true });
  }

  async cancel(row: Locator): Promise<void> {
    await row.getByRole('button', { name: 'Cancel task', exact: true }).click();
  }

  async showInChat(row: Locator): Promise<void> {
    await row.getByRole('button', { name: 'Show in chat', exact: true }).click();
  }

  get clearFinished(): Locator {
    return this.page.getByRole('button', { name: 'Clear finished', exact: true });
  }
}
