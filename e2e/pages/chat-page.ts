import { expect, type Locator, type Page } from '@playwright/test';

/** The Chat view: conversation list, messages, tool-call cards and the composer. */
export class ChatPage {
  readonly conversations: Locator;
  readonly messages: Locator;
  readonly input: Locator;
  readonly streaming: Locator;

  constructor(readonly page: Page) {
    this.conversations = page.getByRole('list', { name: 'Conversations' });
    // includeHidden (here and on what is found inside): while a dialog is open the page behind it is hidden from the accessibility tree.
    this.messages = page.getByRole('list', { name: 'Messages', exact: true, includeHidden: true });
    // By label, not role: the box is a textbox, or a combobox while the slash menu is open.
    this.input = page.getByLabel('Message', { exact: true });
    this.streaming = page.getByTestId('streaming-reply');
  }

  /** Waits until a server is ready, so its tools are offered to the model from the first message on. */
  async waitForServer(name: string, timeout = 30_000): Promise<void> {
    const server = this.page
      .getByRole('list', { name: 'Your servers' })
      .getByRole('listitem')
      .filter({ has: this.page.getByText(name, { exact: true }) });
    await expect(server).toContainText('Ready', { timeout });
  }

  async show(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Chat/ }).click();
  }

  /** Starts a conversation from the list header, or the top bar's button where the list is folded (a small window). */
  async newConversation(): Promise<void> {
    const head = this.page
      .getByRole('region', { name: 'Conversations' })
      .getByRole('button', { name: 'New', exact: true })
      .or(this.page.locator('.top-bar').getByRole('button', { name: 'New conversation', exact: true }));
    await head.click();
    await expect(this.input).toBeVisible();
    await expect(this.input).toBeFocused();
  }

  async send(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press('Enter');
    await expect(this.input).toHaveValue('');
  }

  /**
   * Resolves once no reply is running (the composer's Send button is back). The composer's own: a
   * message being edited has a Send button of its own, still there while its resend is answered.
   */
  async waitForIdle(timeout = 30_000): Promise<void> {
    await expect(
      this.page
        .getByRole('group', { name: 'Your message', exact: true })
        .getByRole('button', { name: 'Send', exact: true }),
    ).toBeVisible({ timeout });
  }

  conversation(title: string | RegExp): Locator {
    return this.conversations.getByRole('listitem').filter({ hasText: title });
  }

  /** The model's finished replies (the one being written is `streaming`). */
  assistantMessages(): Locator {
    return this.messages.getByRole('listitem', { name: 'Reply', exact: true, includeHidden: true });
  }

  /** What the person sent. */
  personMessages(): Locator {
    return this.messages.getByRole('listitem', { name: 'Your message', exact: true, includeHidden: true });
  }

  /** The card of the n-th call (0-based) of `tool`. */
  toolCard(tool: string, index = 0): Locator {
    return this.messages.getByRole('article', { name: `Call of ${tool}`, exact: true, includeHidden: true }).nth(index);
  }

  /** The line of a card whose call runs as an MCP task: its status, the server's message, "Cancel task", "Open in Tasks". */
  taskLine(card: Locator): Locator {
    return card.getByRole('group', { name: 'Task', exact: true, includeHidden: true });
  }

  async stop(): Promise<void> {
    await this.page
      .getByRole('group', { name: 'Your message' })
      .getByRole('button', { name: 'Stop', exact: true })
      .click();
  }
}
