import type { Locator, Page } from '@playwright/test';
import { LogsPage } from './logs-page';

/** The detail panel of one server. */
export class ServerDetail {
  readonly root: Locator;

  constructor(
    readonly page: Page,
    readonly name: string,
  ) {
    this.root = page.getByRole('region', { name: `${name} details`, exact: true });
  }

  /** The header row: status, sign-in state and the server's actions. */
  get header(): Locator {
    return this.root.getByRole('group', { name: 'Status and actions', exact: true });
  }

  /** The Overview tab's panel (facts, capabilities, limits). */
  get overview(): Locator {
    return this.root.getByRole('tabpanel', { name: 'Overview', exact: true });
  }

  get reason(): Locator {
    return this.root.getByTestId('server-reason');
  }

  async showTools(): Promise<void> {
    await this.root.getByRole('tab', { name: /^Tools/ }).click();
  }

  async showOverview(): Promise<void> {
    await this.root.getByRole('tab', { name: 'Overview' }).click();
  }

  tool(name: string): Locator {
    return this.root.getByRole('listitem').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  async expandTool(name: string): Promise<Locator> {
    const tool = this.tool(name);
    // The trigger that shows the whole tool is the item's first button.
    await tool.getByRole('button').first().click();
    return tool;
  }

  /** The Overview tab's log level menu button; its text is the stored level or "Server default". */
  get logLevelButton(): Locator {
    return this.root.getByRole('button', { name: `Log level of ${this.name}: `, exact: false });
  }

  async chooseLogLevel(level: string): Promise<void> {
    await this.logLevelButton.click();
    await this.page.getByRole('menuitemradio', { name: level, exact: true }).click();
  }

  /** The Overview's sampling cap and session budget. */
  get samplingLimits(): Locator {
    return this.root.getByTestId('sampling-limits');
  }

  get samplingBudget(): Locator {
    return this.root.getByTestId('sampling-budget');
  }

  /** The Overview's "Run long tool calls as tasks" switch, its explanation and tool counts. */
  get taskSetting(): Locator {
    return this.root.getByTestId('task-setting');
  }

  get taskSwitch(): Locator {
    return this.root.getByRole('switch', { name: 'Run long tool calls as tasks', exact: true });
  }

  /** Opens the limits form, fills it and saves; the form stays open when a value is refused. */
  async setSamplingLimits(maxTokens: string, sessionBudget: string): Promise<Locator> {
    const form = this.root.getByRole('form', { name: `Sampling limits of ${this.name}` });
    if (!(await form.isVisible())) await this.samplingLimits.getByRole('button', { name: 'Change limits' }).click();
    await form.getByLabel('Max tokens per request').fill(maxTokens);
    await form.getByLabel('Token budget per Berth session').fill(sessionBudget);
    await form.getByRole('button', { name: 'Save limits' }).click();
    return form;
  }

  /** The Overview's "Long results": how much of one result the model gets. */
  get resultLimit(): Locator {
    return this.root.getByTestId('result-limit');
  }

  /** Opens the result limit form, fills it and saves; the form stays open when a value is refused. */
  async setResultLimit(tokens: string): Promise<Locator> {
    const form = this.root.getByRole('form', { name: `Result limit of ${this.name}` });
    if (!(await form.isVisible())) await this.resultLimit.getByRole('button', { name: 'Change result limit' }).click();
    await form.getByLabel('Tokens of one result the model gets').fill(tokens);
    await form.getByRole('button', { name: 'Save limit' }).click();
    return form;
  }

  async openLogs(): Promise<LogsPage> {
    await this.root.getByRole('button', { name: 'Logs', exact: true }).click();
    return new LogsPage(this.page);
  }
}
