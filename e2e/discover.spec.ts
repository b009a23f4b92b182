import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFixtureRegistry, type FixtureRegistry } from './fixtures/registry/fixture-registry';
import { EVERYTHING_NAME, EVERYTHING_VERSION } from './fixtures/registry/entries';
import { DiscoverPage } from './pages/discover-page';
import { ServersPage } from './pages/servers-page';
import { sandboxSupport } from '../app/sandbox/sandbox-runtime';
import { calm, DOCS_DIR, expect, test as base } from './support/berth';

// The host is pointed at a fixture registry of ours (BERTH_REGISTRY_URL), started for each test.
const test = base.extend<{ registry: FixtureRegistry }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  registry: async ({}, use) => {
    const registry = await startFixtureRegistry();
    await use(registry);
    await registry.close();
  },
  hostEnv: async ({ registry }, use) => {
    await use({ BERTH_REGISTRY_URL: registry.url });
  },
});

test('search as you type, page through results, read details, install server-everything through the review, and it reaches ready', async ({
  app,
  berth,
}) => {
  const discover = new DiscoverPage(app);
  await discover.show();
  // Opening Discover lists the registry's latest servers; typing narrows them.
  await expect(discover.result('Everything')).toBeVisible();
  await discover.search.fill('sample');
  await expect(discover.results.getByRole('list', { name: 'Servers' }).getByRole('listitem')).toHaveCount(20);
  await discover.results.getByRole('button', { name: 'Show more' }).click();
  await expect(discover.results.getByRole('list', { name: 'Servers' }).getByRole('listitem')).toHaveCount(26);
  await expect(discover.results.getByRole('button', { name: 'Show more' })).toBeHidden();

  await discover.search.fill('weather');
  await discover.open('Weather');
  await expect(discover.details.getByText('WEATHER_API_KEY')).toBeVisible();
  await expect(discover.details.getByRole('link', { name: /github\.com\/berth-fixtures\/weather-mcp/ })).toBeVisible();
  await calm(app);
  await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'discover.png') });

  await discover.search.fill('deprecated-does-not-match-names');
  await expect(discover.results.getByRole('heading', { name: /No servers match/ })).toBeVisible();

  await discover.search.fill('everything');
  await discover.open('Everything');
  await discover.startInstall('Everything', 'npm');
  const dialog = discover.installDialog;
  await expect(dialog.getByLabel('Name in Berth')).toHaveValue('server-everything');
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = dialog.getByRole('region', { name: 'What server-everything runs' });
  await expect(
    review.getByText(`npx -y @modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`, { exact: true }),
  ).toBeVisible();
  await expect(review.getByText(/\/npx$/)).toBeVisible();
  // Nothing is saved before the person confirms.
  expect(
    JSON.parse(await readFile(join(berth.configDir, 'config.json'), 'utf8').catch(() => '{"mcpServers":{}}'))
      .mcpServers,
  ).toEqual({});
  // Code from a registry runs in the OS sandbox unless the person turns it off here; npx's registry is filled in for it to fetch the package.
  if ((await sandboxSupport()).available) {
    await expect(dialog.getByRole('switch', { name: 'Run in the OS sandbox', exact: true })).toBeChecked();
    await expect(dialog.getByRole('textbox', { name: 'Domain 1', exact: true })).toHaveValue('registry.npmjs.org');
  }
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'install-review.png') });
  await dialog.getByRole('button', { name: 'Install and start' }).click();
  await expect(dialog).toBeHidden();

  const servers = new ServersPage(app);
  await servers.show();
  await servers.expectStatus('server-everything', 'Ready', 60_000);
  if ((await sandboxSupport()).available)
    await expect(servers.card('server-everything').getByText('Sandboxed', { exact: true })).toBeVisible();
  const config = JSON.parse(await readFile(join(berth.configDir, 'config.json'), 'utf8')) as {
    mcpServers: Record<string, { registry?: { name: string; version: string } }>;
  };
  expect(config.mcpServers['server-everything']?.registry).toMatchObject({
    name: EVERYTHING_NAME,
    version: EVERYTHING_VERSION,
  });
});

test('a required secret is asked for and masked; a registry that goes down leaves its cached results with a clear message', async ({
  app,
  registry,
}) => {
  const discover = new DiscoverPage(app);
  await discover.show();
  // By keyboard: from the search, Tab reaches the results, Enter opens one, Escape closes the install dialog.
  await discover.search.focus();
  await app.keyboard.type('time');
  await expect(discover.result('Time')).toBeVisible();
  await app.keyboard.press('Tab');
  await app.keyboard.press('Tab');
  await expect(discover.result('Time')).toBeFocused();
  await app.keyboard.press('Enter');
  const install = discover.details.getByRole('button', { name: 'Install Time (pypi)' });
  await expect(install).toBeVisible();
  await install.focus();
  await app.keyboard.press('Enter');
  await expect(discover.installDialog.getByRole('combobox', { name: /--local-timezone/ })).toHaveValue('UTC');
  await app.keyboard.press('Escape');
  await expect(discover.installDialog).toBeHidden();

  await discover.search.fill('weather');
  await discover.open('Weather');
  await discover.startInstall('Weather', 'npm');
  const dialog = discover.installDialog;
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByText('Enter WEATHER_API_KEY')).toBeVisible();
  await expect(dialog.getByLabel('WEATHER_API_KEY (required)')).toHaveAttribute('type', 'password');
  await dialog.getByLabel('WEATHER_API_KEY (required)').fill('wk-e2e-secret');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByText('WEATHER_API_KEY=••••••••')).toBeVisible();
  await expect(dialog.getByText(/Kept in Berth’s secret store.*WEATHER_API_KEY/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  registry.setFailing(true);
  await discover.search.fill('');
  await discover.search.fill('weather');
  await expect(discover.results.getByRole('status')).toContainText('answered 503');
  await expect(discover.results.getByRole('status')).toContainText('These results are from');
  await expect(discover.result('Weather')).toBeVisible();
  await discover.search.fill('never-searched');
  await expect(discover.results.getByRole('heading', { name: 'The registry cannot be reached' })).toBeVisible();
  await expect(discover.results.getByText(/nothing from it is cached yet/)).toBeVisible();
});
