import { expect, type Locator, type Page } from '@playwright/test';

type PendingKind = 'tool-call' | 'sampling' | 'sampling-answer' | 'elicitation' | 'root-consent' | 'skill';

/** Each kind of dialog by its title. */
const TITLE_OF_KIND: Record<PendingKind, RegExp> = {
  // "Allow x to run?", or for an app's call "Allow the app in this card to run x?".
  'tool-call': /^Allow .+ to run( .+)?\?$/,
  sampling: /^Review a sampling request$/,
  'sampling-answer': /^Review the answer before it is sent$/,
  elicitation: /” (asks for information|wants you to open a web page)$/,
  'root-consent': /wants to see (this folder|these folders)$/,
  skill: /^(Load skill .+\?|Load the changed skill .+\?|Skill .+ refers to other servers)$/,
};

/** The dialog of the request waiting for the person: consent, sampling review (both stages) or elicitation. */
export class PendingDialog {
  readonly root: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog');
  }

  async expectKind(kind: PendingKind, timeout = 30_000): Promise<void> {
    // By name alone: while another dialog is closing, `root` can briefly match two.
    await expect(this.page.getByRole('dialog', { name: TITLE_OF_KIND[kind] })).toBeVisible({ timeout });
  }

  async expectClosed(): Promise<void> {
    await expect(this.root).toBeHidden();
  }

  button(name: string): Locator {
    return this.root.getByRole('button', { name, exact: true });
  }

  // Tool-call consent
  /** The line naming the server (as the person named it) and the tool's identifier. */
  get toolHeader(): Locator {
    return this.root.getByRole('region', { name: 'Tool', exact: true }).getByRole('heading', { level: 3 });
  }

  /** The tool's title and description, quoted as what the server claims. */
  get serverWords(): Locator {
    return this.root.getByTestId('tool-server-words');
  }

  get argumentsEditor(): Locator {
    return this.root.getByLabel('Arguments', { exact: true });
  }

  async editArguments(value: Record<string, unknown>): Promise<void> {
    await this.argumentsEditor.fill(JSON.stringify(value, null, 2));
  }

  async allow(
    choice:
      | 'Allow once'
      | 'Allow for this conversation'
      | 'Allow while the card is open'
      | 'Always allow this tool'
      | 'Always allow this server' = 'Allow once',
  ): Promise<void> {
    await this.button(choice).click();
  }

  /** Why a permission the person gave no longer covers this call, and what changed. */
  get approvalChange(): Locator {
    return this.root.getByRole('region', { name: 'Changed since you allowed it' });
  }

  /** The line diff of one changed field ("Description", "Input schema (what the tool accepts)", …). */
  changedField(label: string): Locator {
    return this.approvalChange.getByLabel(`${label}: lines removed and added`);
  }

  async deny(reason?: string): Promise<void> {
    if (reason !== undefined) await this.root.getByLabel(/Reason if you deny/).fill(reason);
    await this.button('Deny').click();
  }

  // Sampling
  messageEditor(index = 1, role: 'user' | 'assistant' = 'user'): Locator {
    return this.root.getByLabel(`Message ${index} (${role})`, { exact: true });
  }

  /** Stage 1: the max tokens Berth will send (editable), and the note that says why. */
  get maxTokensField(): Locator {
    return this.root.getByLabel('Max tokens', { exact: true });
  }

  get maxTokensNote(): Locator {
    return this.root.getByTestId('max-tokens-note');
  }

  get answerEditor(): Locator {
    return this.root.getByLabel('Answer', { exact: true });
  }

  async reject(reason?: string): Promise<void> {
    if (reason !== undefined) await this.root.getByLabel(/Reason if you reject/).fill(reason);
    await this.button('Reject').click();
  }

  // Elicitation
  field(label: string | RegExp): Locator {
    return this.root.getByLabel(label);
  }
}
