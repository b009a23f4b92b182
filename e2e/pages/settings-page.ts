import { expect, type Locator, type Page } from '@playwright/test';

/** Settings: API key, default model, tool permissions, sampling policies, models for sampling, audit log. */
export class SettingsPage {
  readonly permissions: Locator;
  readonly audit: Locator;
  /** The models sampling chooses among, with their tier and ranks. */
  readonly samplingModels: Locator;

  constructor(readonly page: Page) {
    this.permissions = page.getByRole('table', { name: 'Tool permissions' });
    this.audit = page.getByRole('table', { name: 'Audit log' });
    this.samplingModels = page.getByRole('table', { name: 'Models for sampling' });
  }

  async show(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    await expect(this.page.getByRole('heading', { name: 'Tool permissions' })).toBeVisible();
  }

  permissionRow(tool: string): Locator {
    return this.permissions.getByRole('row').filter({ hasText: tool });
  }

  /** Revoke, confirmed in the alert dialog. */
  async revoke(tool: string): Promise<void> {
    await this.permissionRow(tool)
      .getByRole('button', { name: /^Revoke permission/ })
      .click();
    const confirm = this.page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(confirm).toBeHidden();
  }

  /** A model's row in "Models for sampling", by its model key. */
  samplingModelRow(key: string): Locator {
    return this.samplingModels.locator(`tr[data-model="${key}"]`);
  }
}
