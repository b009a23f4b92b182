import { expect, type Locator, type Page } from '@playwright/test';

/** The "Import servers" dialog: source picker, then the preview table. */
export class ImportDialog {
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Import servers' });
  }

  /** Opens it from the servers column or, with no servers yet, the empty state. */
  static async open(page: Page): Promise<ImportDialog> {
    const fromList = page.getByRole('button', { name: 'Import servers…' });
    const fromEmpty = page.getByRole('button', { name: 'Import from another app…' });
    await expect(fromList.or(fromEmpty)).toBeVisible();
    if (await fromList.isVisible()) await fromList.click();
    else await fromEmpty.click();
    const dialog = new ImportDialog(page);
    await expect(dialog.dialog).toBeVisible();
    return dialog;
  }

  location(label: string): Locator {
    return this.dialog.getByRole('button', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}`) });
  }

  async paste(formatLabel: string, text: string): Promise<void> {
    await this.dialog.getByLabel('Format', { exact: true }).selectOption({ label: formatLabel });
    await this.dialog.getByLabel('Contents', { exact: true }).fill(text);
    await this.dialog.getByRole('button', { name: 'Preview' }).click();
  }

  checkbox(sourceName: string): Locator {
    return this.dialog.getByRole('checkbox', { name: `Import ${sourceName}` });
  }

  row(sourceName: string): Locator {
    // The row that holds the server's checkbox (`has` looks inside the row, so from the page, not the dialog).
    return this.dialog
      .getByRole('row')
      .filter({ has: this.page.getByRole('checkbox', { name: `Import ${sourceName}` }) });
  }

  /** What the server runs, shown in full under its row. */
  details(sourceName: string): Locator {
    return this.dialog.getByRole('row', { name: `What ${sourceName} runs`, exact: true });
  }

  input(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  importButton(): Locator {
    return this.dialog.getByRole('button', { name: /^Import \d+ servers?$/ });
  }
}
