import { expect, type Locator, type Page } from '@playwright/test';

/** Settings: API key, default model, tool permissions, sampling policies, audit log. */
export class SettingsPage {
  readonly permissions: Locator;
  readonly audit: Locator;

  constructor(readonly page: Page) {
    this.permissions = page.getByRole('table', { name: 'Tool permissions' });
    this.audit = page.getByRole('table', { name: 'Audit log' });
  }

  async show(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Settings/ }).click();
    await expect(this.page.getByRole('heading', { name: 'Tool permissions' })).toBeVisible();
  }

  permissionRow(tool: string): Locator {
    return this.permissions.getByRole('row').filter({ hasText: tool });
  }

  /** Revoke, confirmed in the alert dialog. */
  async revoke(tool: string): Promise<void> {
    await this.permissionRow(tool).getByRole('button', { name: /^Revoke permission/ }).click();
    const confirm = this.page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(confirm).toBeHidden();
  }
}
