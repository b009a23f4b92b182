import { expect, type Locator, type Page } from '@playwright/test';

/** The sandbox as the person sees it: the editor (form, Sandbox tab, reviews), a denial and its confirmation. */
export class SandboxControls {
  constructor(readonly scope: Locator) {}

  get switch(): Locator {
    return this.scope.getByRole('switch', { name: 'Run in the OS sandbox', exact: true });
  }

  get network(): Locator {
    return this.scope.getByTestId('sandbox-policy-network');
  }

  async addDomain(domain: string): Promise<void> {
    await this.scope.getByRole('button', { name: 'Add domain', exact: true }).click();
    const rows = this.scope.getByRole('textbox', { name: /^Domain \d+$/ });
    await rows.last().fill(domain);
  }
}

/** "Blocked by the sandbox: …" with its one action, on a card or a detail. */
export class DenialNotice {
  readonly root: Locator;

  constructor(
    readonly page: Page,
    scope: Locator,
    server: string,
  ) {
    this.root = scope.getByRole('group', { name: `Blocked by the sandbox in ${server}`, exact: true });
  }

  /** Presses "Allow this folder"/"Allow this domain", checks what the confirmation says, and confirms. */
  async allow(action: 'Allow this folder' | 'Allow this domain', target: string): Promise<void> {
    await this.root.getByRole('button', { name: action, exact: true }).click();
    const confirm = this.page.getByRole('alertdialog');
    await expect(confirm).toContainText(target);
    await expect(confirm).toContainText('restarts it');
    await confirm.getByRole('button', { name: 'Allow and restart', exact: true }).click();
    await expect(confirm).toBeHidden();
  }
}
