import type { Locator, Page } from '@playwright/test';

/** How the log names an entry of each source (its aria-label starts with this). */
const ENTRY_NAME: Record<'stderr' | 'notification' | 'trace' | 'host' | 'app', RegExp> = {
  app: /^app$/,
  stderr: /^stderr$/,
  notification: /^server log$/,
  trace: /^trace (to|from) the server/,
  host: /^Berth$/,
};

/** The log viewer. Rows are virtualized: only those near the viewport exist in the DOM. */
export class LogsPage {
  readonly scroller: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.scroller = page.getByRole('log', { name: 'Log entries' });
    this.rows = this.scroller.getByRole('article');
  }

  rowsFrom(source: 'stderr' | 'notification' | 'trace' | 'host' | 'app'): Locator {
    return this.scroller.getByRole('article', { name: ENTRY_NAME[source] });
  }

  traceRow(method: string, direction: 'in' | 'out' = 'out'): Locator {
    const towards = direction === 'out' ? 'to' : 'from';
    return this.scroller.getByRole('article', { name: `trace ${towards} the server: ${method}`, exact: true });
  }

  /** Shows the entry's whole JSON and returns it. */
  async expand(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: /^Show JSON/ }).click();
    return row.getByRole('code');
  }

  async toggleSource(label: string): Promise<void> {
    await this.page
      .getByRole('toolbar', { name: 'Log filters' })
      .getByRole('button', { name: `Show ${label}` })
      .click();
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Search logs' }).fill(text);
  }

  get status(): Locator {
    return this.page.getByRole('status', { name: 'Log summary' });
  }
}
