import { expect, type Locator, type Page } from '@playwright/test';
import { ServerDetail } from './server-detail';
import { ServerForm } from './server-form';

/** The Servers view and the sidebar's server list. */
export class ServersPage {
  readonly emptyState: Locator;
  readonly sidebarServers: Locator;
  /** The Servers view's column: its header, tools and one card per server. */
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.list = page.getByRole('region', { name: 'Servers', exact: true });
    this.emptyState = page.getByRole('heading', { name: 'Connect your first MCP server' });
    this.sidebarServers = page.getByRole('list', { name: 'Your servers' });
  }

  async show(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Servers/ })
      .click();
  }

  /** Opens the blank add form, from the empty state or the list header. */
  async openAddForm(): Promise<ServerForm> {
    const fromEmpty = this.page.getByRole('button', { name: 'Add your own' });
    const fromList = this.list.getByRole('button', { name: 'Add server' });
    // Wait for the server list to load: before that neither button exists, and isVisible() does not wait.
    await expect(fromEmpty.or(fromList)).toBeVisible();
    if (await fromEmpty.isVisible()) await fromEmpty.click();
    else await fromList.click();
    const form = new ServerForm(this.page);
    await expect(form.dialog).toBeVisible();
    return form;
  }

  card(name: string): Locator {
    return this.list
      .getByRole('list', { name: 'Servers', exact: true })
      .getByRole('listitem')
      .filter({ has: this.page.getByText(name, { exact: true }) });
  }

  status(name: string): Locator {
    return this.card(name).getByRole('status');
  }

  async expectStatus(name: string, word: string | RegExp, timeout = 30_000): Promise<void> {
    await expect(this.status(name)).toHaveText(word, { timeout });
  }

  async select(name: string): Promise<ServerDetail> {
    // The card's first button selects it (its name starts with the server's name; the others are its own controls).
    await this.card(name).getByRole('button').first().click();
    const detail = new ServerDetail(this.page, name);
    await expect(detail.root).toBeVisible();
    return detail;
  }

  /** OAuth: forget the server's tokens (from its menu). */
  async signOut(name: string): Promise<void> {
    await this.menu(name, 'Sign out');
  }

  private async menu(name: string, item: string): Promise<void> {
    await this.card(name)
      .getByRole('button', { name: `More actions for ${name}` })
      .click();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  async edit(name: string): Promise<ServerForm> {
    await this.menu(name, 'Edit…');
    const form = new ServerForm(this.page);
    await expect(form.dialog).toBeVisible();
    return form;
  }

  /** Opens the remove confirmation and returns it (confirm or cancel is up to the test). */
  async askToRemove(name: string): Promise<Locator> {
    await this.menu(name, 'Remove…');
    const dialog = this.page.getByRole('alertdialog');
    await expect(dialog).toBeVisible();
    return dialog;
  }
}
