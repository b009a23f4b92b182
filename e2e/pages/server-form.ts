import type { Locator, Page } from '@playwright/test';

export interface ServerFormInput {
  name?: string;
  command?: string;
  /** Replaces every argument. */
  args?: string[];
  env?: { key: string; value: string; secret?: boolean }[];
  /** A level, or "Server default". */
  logLevel?: string;
  startWithBerth?: boolean;
  /** Switches the form to "Remote URL". */
  remote?: {
    url: string;
    transport?: 'Automatic' | 'Streamable HTTP' | 'HTTP+SSE (legacy)';
    headers?: { key: string; value: string; secret?: boolean }[];
  };
}

/** The add/edit server dialog. */
export class ServerForm {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
  }

  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  async fill(input: ServerFormInput): Promise<void> {
    if (input.name !== undefined) await this.field('Name').fill(input.name);
    if (input.remote !== undefined) {
      await this.dialog.getByRole('radio', { name: 'Remote URL' }).click();
      await this.field('Server URL').fill(input.remote.url);
      if (input.remote.transport !== undefined)
        await this.field('Transport').selectOption({ label: input.remote.transport });
      for (const [index, row] of (input.remote.headers ?? []).entries()) {
        await this.dialog.getByRole('button', { name: 'Add header' }).click();
        await this.field(`Header ${index + 1} name`).fill(row.key);
        await this.field(`Header ${index + 1} value`).fill(row.value);
        if (row.secret) await this.dialog.getByRole('switch', { name: `Header ${index + 1} is a secret` }).click();
      }
    }
    if (input.command !== undefined) await this.field('Command').fill(input.command);
    if (input.args !== undefined) {
      const remove = this.dialog.getByRole('button', { name: /^Remove argument/ });
      while ((await remove.count()) > 0) await remove.first().click();
      for (const [index, value] of input.args.entries()) {
        await this.dialog.getByRole('button', { name: 'Add argument' }).click();
        await this.field(`Argument ${index + 1}`).fill(value);
      }
    }
    if (input.logLevel !== undefined) await this.field('Log level').selectOption({ label: input.logLevel });
    if (input.startWithBerth !== undefined)
      await this.dialog.getByRole('switch', { name: 'Start with Berth' }).setChecked(input.startWithBerth);
    for (const [index, row] of (input.env ?? []).entries()) {
      await this.dialog.getByRole('button', { name: 'Add variable' }).click();
      await this.field(`Variable ${index + 1} name`).fill(row.key);
      await this.field(`Variable ${index + 1} value`).fill(row.value);
      if (row.secret) await this.dialog.getByRole('switch', { name: `Variable ${index + 1} is a secret` }).click();
    }
  }

  async submit(): Promise<void> {
    await this.dialog.getByRole('button', { name: /^(Add server|Save changes)$/ }).click();
  }

  /** Asked on saving a new command or address for a server that holds approvals. */
  get keepApprovalsQuestion(): Locator {
    return this.page.getByRole('alertdialog', { name: /^Keep what you approved for/ });
  }

  async answerApprovals(answer: 'Keep approvals' | 'Revoke and ask again'): Promise<void> {
    await this.keepApprovalsQuestion.getByRole('button', { name: answer, exact: true }).click();
  }

  /**
   * The error shown under a field: the alert in the field's wrapper. The wrapper is found by its class because
   * nothing in the accessibility tree ties an error to its field but the control's aria-describedby.
   */
  errorFor(label: string): Locator {
    return this.dialog
      .locator('.field')
      .filter({ has: this.page.getByLabel(label, { exact: true }) })
      .getByRole('alert');
  }
}
