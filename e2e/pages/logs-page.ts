import type { Locator, Page } from '@playwright/test';

/** The log viewer. Rows are virtualized: only those near the viewport exist in the DOM. */
export class LogsPage {
  readonly scroller: Locator;
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.scroller = page.getByTestId('log-scroll');
    this.rows = this.scroller.locator('.log-row');
  }

  rowsFrom(source: 'stderr' | 'notification' | 'trace' | 'host'): Locator {
    return this.scroller.locator(`.log-row[data-source="${source}"]`);
  }

  traceRow(method: string, direction: 'in' | 'out' = 'out'): Locator {
    const arrow = direction === 'out' ? '→' : '←';
    return this.rowsFrom('trace')
      .filter({ has: this.page.locator('.trace-method', { hasText: new RegExp(`^${method.replace(/[/.]/g, '\\$&')}$`) }) })
      .filter({ has: this.page.locator('.trace-dir', { hasText: arrow }) });
  }

  async expand(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: /^Show JSON/ }).click();
    return row.locator('.log-body');
  }

  async toggleSource(label: string): Promise<void> {
    await this.page.getByRole('toolbar', { name: 'Log filters' }).getByRole('button', { name: `Show ${label}` }).click();
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('searchbox', { name: 'Search logs' }).fill(text);
  }

  get status(): Locator {
    return this.page.locator('.log-status');
  }
}
