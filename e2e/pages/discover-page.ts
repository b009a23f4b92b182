import { expect, type Locator, type Page } from '@playwright/test';

/** The Discover view: registry search, results, the details panel and the install dialog. */
export class DiscoverPage {
  readonly search: Locator;
  readonly results: Locator;
  readonly details: Locator;
  readonly installDialog: Locator;

  constructor(readonly page: Page) {
    this.search = page.getByRole('searchbox', { name: 'Search servers' });
    this.results = page.getByRole('region', { name: 'Search results' });
    this.details = page.getByRole('region', { name: 'Server details' });
    this.installDialog = page.getByRole('dialog');
  }

  async show(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Discover/ })
      .click();
    await expect(this.search).toBeVisible();
  }

  result(title: string): Locator {
    return this.results
      .getByRole('list', { name: 'Servers' })
      .getByRole('button')
      .filter({ has: this.page.getByText(title, { exact: true }) });
  }

  async open(title: string): Promise<void> {
    await this.result(title).click();
    await expect(this.details.getByRole('heading', { level: 2, name: title })).toBeVisible();
  }

  /** Opens the install dialog for the option of this kind (npm, pypi, streamable-http…). */
  async startInstall(title: string, kind: string): Promise<void> {
    await this.details.getByRole('button', { name: `Install ${title} (${kind})` }).click();
    await expect(this.installDialog).toBeVisible();
  }
}
