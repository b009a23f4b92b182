import { expect, type Locator, type Page } from '@playwright/test';
import { ChatPage } from './chat-page';

/** Slash commands in the chat composer: the prompt menu, a prompt's argument form and its suggestions. */
export class PromptsPage {
  readonly chat: ChatPage;
  readonly menu: Locator;
  readonly options: Locator;
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.chat = new ChatPage(page);
    this.menu = page.getByRole('group', { name: 'Prompts', exact: true });
    this.options = this.menu.getByRole('option');
    // A prompt's form is named after its slash command.
    this.form = page.getByRole('form', { name: /^\// });
  }

  /** Types into the empty message box, as a person would (key by key). */
  async typeInComposer(text: string): Promise<void> {
    await this.chat.input.pressSequentially(text);
  }

  option(name: string): Locator {
    return this.options.filter({ has: this.page.getByText(`/${name}`, { exact: true }) });
  }

  field(label: string | RegExp): Locator {
    return this.form.getByRole('combobox', { name: label });
  }

  suggestions(label: string): Locator {
    return this.form.getByRole('listbox', { name: `Suggestions for ${label}` });
  }

  async insert(): Promise<void> {
    await this.form.getByRole('button', { name: 'Insert prompt' }).click();
  }

  async expectMenuClosed(): Promise<void> {
    await expect(this.menu).toBeHidden();
  }
}
