import { expect, type Locator, type Page } from '@playwright/test';
import { ServerDetail } from './server-detail';
import { ServersPage } from './servers-page';

/** The Resources tab of one server's detail panel. */
export class ResourcesPage {
  readonly root: Locator;
  readonly viewer: Locator;

  constructor(
    readonly page: Page,
    readonly server: string,
  ) {
    this.root = new ServerDetail(page, server).root;
    this.viewer = this.root.getByRole('region', { name: /^Preview of / });
  }

  /** Servers view → this server → Resources tab. */
  async open(): Promise<void> {
    const servers = new ServersPage(this.page);
    await servers.show();
    await servers.select(this.server);
    await this.root.getByRole('tab', { name: 'Resources' }).click();
    await expect(this.resources.first()).toBeVisible({ timeout: 30_000 });
  }

  get resources(): Locator {
    return this.root.getByRole('list', { name: 'Resources' }).getByRole('button');
  }

  resource(name: string | RegExp): Locator {
    return this.root.getByRole('list', { name: 'Resources' }).getByRole('button', { name });
  }

  template(name: string | RegExp): Locator {
    return this.root.getByRole('list', { name: 'Templates' }).getByRole('button', { name });
  }

  templateForm(name: string): Locator {
    return this.root.getByRole('form', { name: `Fill in ${name}` });
  }

  get subscribe(): Locator {
    return this.viewer.getByRole('switch', { name: 'Subscribe to changes' });
  }

  get updatedBadge(): Locator {
    return this.viewer.getByTestId('resource-updated');
  }

  async attachToChat(): Promise<void> {
    await this.viewer.getByRole('button', { name: 'Attach to chat' }).click();
  }
}
