import { expect, type Locator, type Page } from '@playwright/test';

/** Workspace roots: the list, the browser-mode folder browser, and who sees what. */
export class RootsPage {
  readonly list: Locator;
  readonly browser: Locator;
  readonly matrix: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('list', { name: 'Workspace roots' });
    this.browser = page.getByRole('dialog', { name: 'Add a workspace root' });
    this.matrix = page.getByRole('table', { name: 'Which server sees which root' });
  }

  async show(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Workspace roots/ })
      .click();
    await expect(this.page.getByRole('heading', { name: 'Workspace roots', level: 1 })).toBeVisible();
  }

  row(name: string): Locator {
    return this.list.getByRole('listitem', { name, exact: true });
  }

  /** Opens the folder browser (in the page header, or the empty state when there are no roots). */
  get addFolder(): Locator {
    return this.page.getByRole('button', { name: 'Add folder', exact: true });
  }

  /** Opens the folder browser at `folder` by typing its path (what a person does to jump somewhere). */
  async openBrowserAt(folder: string): Promise<void> {
    await this.addFolder.click();
    await expect(this.browser).toBeVisible();
    const path = this.browser.getByRole('textbox', { name: 'Folder path' });
    await path.fill(folder);
    await path.press('Enter');
    await expect(this.folderList).toHaveAttribute('aria-label', `Folders in ${folder}`);
  }

  /** Presses the folder browser's "Use “…”" button (named after the folder shown). */
  async useShownFolder(): Promise<void> {
    await this.browser.getByRole('button', { name: /^Use “/ }).click();
  }

  /** The warning that asks before sharing a folder as broad as / or the home folder. */
  get broadWarning(): Locator {
    return this.browser.getByTestId('broad-folder-warning');
  }

  get folderList(): Locator {
    return this.browser.getByRole('list', { name: /^Folders in / });
  }

  folder(name: string): Locator {
    return this.folderList.getByRole('button', { name, exact: true });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.row(from)
      .getByRole('button', { name: `Rename ${from}` })
      .click();
    const input = this.page.getByLabel(`New name for ${from}`);
    await input.fill(to);
    await input.press('Enter');
    await expect(this.row(to)).toBeVisible();
  }

  async remove(name: string): Promise<void> {
    await this.row(name)
      .getByRole('button', { name: `Remove ${name}` })
      .click();
    await expect(this.row(name)).toHaveCount(0);
  }

  /** The exposure checkbox of one server and root in the matrix. */
  sees(server: string, root: string): Locator {
    return this.matrix.getByRole('checkbox', { name: `${server} sees ${root}` });
  }

  matrixCell(server: string, root: string): Locator {
    return this.matrix
      .getByRole('cell')
      .filter({ has: this.page.getByRole('checkbox', { name: `${server} sees ${root}` }) });
  }
}
