import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServersPage } from './pages/servers-page';
import { DOCS_DIR, everythingServerConfig, expect, test } from './support/berth';

/** A server whose one tool may run as a task (taskSupport: optional). */
const TASK_OPTIONAL = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'task-optional.mjs');

async function storedConfig(configDir: string): Promise<{ mcpServers: Record<string, Record<string, unknown>> }> {
  return JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };
}

test.describe('per-server settings', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        everything: everythingServerConfig(),
        idle: { ...everythingServerConfig(), enabled: false },
      },
    },
  });

  test('a log level chosen in the Overview is sent live, stored, and survives a Berth restart', async ({
    app,
    berth,
  }) => {
    let servers = new ServersPage(app);
    await servers.expectStatus('everything', 'Ready');
    let detail = await servers.select('everything');
    await detail.showOverview();
    await expect(detail.logLevelButton).toHaveText('Server default');

    await detail.chooseLogLevel('debug');
    await expect(detail.logLevelButton).toHaveText('debug');
    await expect.poll(async () => (await storedConfig(berth.configDir)).mcpServers.everything?.logLevel).toBe('debug');
    // Applied without a restart: still ready, and logging/setLevel went out.
    await expect(servers.status('everything')).toHaveText('Ready');
    const logs = await detail.openLogs();
    await expect(logs.traceRow('logging/setLevel').first()).toBeVisible();

    await berth.restart();
    await app.goto(berth.url);
    servers = new ServersPage(app);
    await servers.expectStatus('everything', 'Ready');
    detail = await servers.select('everything');
    await detail.showOverview();
    await expect(detail.logLevelButton).toHaveText('debug');
    const afterRestart = await detail.openLogs();
    await expect(afterRestart.traceRow('logging/setLevel').first()).toBeVisible();

    // Back to the server's own default: removed from config.json, no restart.
    await servers.show();
    detail = await servers.select('everything');
    await detail.showOverview();
    await detail.chooseLogLevel('Server default');
    await expect(detail.logLevelButton).toHaveText('Server default');
    await expect
      .poll(async () => 'logLevel' in ((await storedConfig(berth.configDir)).mcpServers.everything ?? {}))
      .toBe(false);
    await expect(servers.status('everything')).toHaveText('Ready');
  });

  test('a stopped server keeps a chosen level for its next start; the form shows and changes it', async ({
    app,
    berth,
  }) => {
    const servers = new ServersPage(app);
    await servers.expectStatus('idle', 'Stopped');
    const detail = await servers.select('idle');
    await detail.showOverview();
    await detail.chooseLogLevel('warning');
    await expect(detail.logLevelButton).toHaveText('warning');
    await expect(detail.root).toContainText('Applied when it starts.');
    await app.screenshot({ path: test.info().outputPath('overview-stopped-level.png') });
    await expect.poll(async () => (await storedConfig(berth.configDir)).mcpServers.idle?.logLevel).toBe('warning');

    const form = await servers.edit('idle');
    await expect(form.field('Log level')).toHaveValue('warning');
    await app.screenshot({ path: test.info().outputPath('server-form-level.png') });
    await expect(form.dialog.getByRole('switch', { name: 'Start with Berth' })).not.toBeChecked();
    await form.fill({ logLevel: 'Server default', startWithBerth: true });
    await form.submit();
    await expect(form.dialog).toBeHidden();
    await servers.expectStatus('idle', 'Ready');
    await expect(detail.logLevelButton).toHaveText('Server default');
    const stored = (await storedConfig(berth.configDir)).mcpServers.idle;
    expect(stored).not.toHaveProperty('logLevel');
    expect(stored).not.toHaveProperty('enabled');
  });

  test('explains restart and timeout limits that contradict each other', async ({ app }) => {
    const servers = new ServersPage(app);
    const form = await servers.edit('idle');
    await form.dialog.getByRole('button', { name: 'Advanced: timeouts and restarts' }).click();
    await form.field('Request timeout (s)').fill('120');
    await form.field('Longest call (s)').fill('60');
    await form.field('First delay (s)').fill('10');
    await form.field('Longest delay (s)').fill('5');
    await form.field('Give up after').fill('-1');
    await form.submit();
    await expect(form.errorFor('Longest call (s)')).toHaveText(
      'Use at least 120 seconds, the same as the request timeout',
    );
    await expect(form.errorFor('Longest delay (s)')).toHaveText('Use at least 10 seconds, the same as the first delay');
    await expect(form.errorFor('Give up after')).toHaveText('Use 0 or more (0 turns automatic restarts off)');
    await expect(form.dialog).toBeVisible();
    await app.screenshot({ path: test.info().outputPath('server-form-limits.png') });
  });
});

test.describe('running long tool calls as tasks', () => {
  test.use({
    initialConfig: {
      mcpServers: {
        everything: everythingServerConfig(),
        slow: { command: process.execPath, args: [TASK_OPTIONAL] },
      },
    },
  });

  test('the Overview switch says what it does, counts the task tools, is changed from the keyboard, kept in settings.json and across a restart', async ({
    app,
    berth,
  }) => {
    let servers = new ServersPage(app);
    await servers.expectStatus('everything', 'Ready');
    let detail = await servers.select('everything');
    await detail.showOverview();
    await expect(detail.taskSwitch).toBeChecked();
    await expect(detail.taskSetting).toContainText(
      'Tools that can run in the background report progress and can be cancelled; Berth checks on them instead of waiting on one request.',
    );
    // simulate-research-query requires a task; server-everything has no tool that merely may.
    await expect(detail.root.getByTestId('task-tool-counts')).toHaveText(
      /^Of its \d+ tools, 1 must run as a task, whatever this says; none is left to this switch\.$/,
    );

    await servers.expectStatus('slow', 'Ready');
    detail = await servers.select('slow');
    await detail.showOverview();
    await expect(detail.root.getByTestId('task-tool-counts')).toHaveText(
      'Its only tool can run as a task: this switch decides.',
    );
    await detail.taskSwitch.focus();
    await app.keyboard.press('Space');
    await expect(detail.taskSwitch).not.toBeChecked();
    await expect(detail.taskSwitch).toBeFocused();
    await expect
      .poll(
        async () => JSON.parse(await readFile(join(berth.configDir, 'settings.json'), 'utf8')).tasksForOptionalTools,
      )
      .toEqual({ slow: false });
    // Applied to the next call without a restart: the server is still the same ready process.
    await expect(servers.status('slow')).toHaveText('Ready');
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    await detail.taskSetting.scrollIntoViewIfNeeded();
    // From the sampling limits down: the per-server choices, not this machine's paths.
    const panel = await detail.overview.boundingBox();
    const from = await detail.samplingLimits.boundingBox();
    const to = await detail.taskSetting.boundingBox();
    if (panel === null || from === null || to === null) throw new Error('the Overview is not laid out');
    await app.screenshot({
      path: join(DOCS_DIR, 'screenshots', 'server-task-setting.png'),
      clip: { x: panel.x, y: from.y - 12, width: panel.width, height: to.y + to.height - from.y + 24 },
    });

    await berth.restart();
    await app.goto(berth.url);
    servers = new ServersPage(app);
    await servers.expectStatus('slow', 'Ready');
    detail = await servers.select('slow');
    await detail.showOverview();
    await expect(detail.taskSwitch).not.toBeChecked();
    await detail.taskSwitch.press('Enter');
    await expect(detail.taskSwitch).toBeChecked();
    await expect
      .poll(
        async () => JSON.parse(await readFile(join(berth.configDir, 'settings.json'), 'utf8')).tasksForOptionalTools,
      )
      .toEqual({});
  });
});
