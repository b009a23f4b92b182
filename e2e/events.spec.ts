import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServersPage } from './pages/servers-page';
import { calm, DOCS_DIR, expect, test } from './support/berth';

/** Declares MCP Events (build.finished, alert.raised) over a JSON-lines upstream the test appends to. */
const EVENTS_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'events-server.mjs');
const SHOTS = join(DOCS_DIR, 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`MCP Events (${scheme})`, () => {
    const folder = mkdtempSync(join(tmpdir(), `berth-e2e-events-${scheme}-`));
    const upstream = join(folder, 'upstream.jsonl');
    test.use({
      colorScheme: scheme,
      initialConfig: {
        mcpServers: {
          ci: { command: process.execPath, args: [EVENTS_SERVER], env: { EVENTS_FIXTURE_LOG: upstream } },
        },
      },
    });
    test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

    test('subscribe from the Events tab; an event appended upstream reaches the Inbox', async ({ app }) => {
      await mkdir(SHOTS, { recursive: true });
      const servers = new ServersPage(app);
      await servers.show();
      await servers.expectStatus('ci', 'Ready');
      const detail = await servers.select('ci');
      await detail.root.getByRole('tab', { name: 'Events' }).click();
      const types = detail.root.getByRole('region', { name: 'Event types' });
      const build = types.getByRole('listitem', { name: 'Build finished' });
      await expect(build).toContainText('Fires when a build of the project finishes');
      await expect(build).toContainText('Delivery: poll, push');
      await calm(app);
      await app.screenshot({ path: join(SHOTS, `events-tab-${scheme}.png`) });

      await build.getByRole('button', { name: 'Subscribe…' }).click();
      const form = app.getByRole('dialog', { name: 'Subscribe to Build finished' });
      await form.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await expect(form).toContainText('Enter a value for Project: it is required');
      await form.getByLabel(/^Project/).fill('berth');
      await form.getByRole('radio', { name: /Notify me/ }).check();
      await calm(app);
      await app.screenshot({ path: join(SHOTS, `events-subscribe-${scheme}.png`) });
      await form.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await expect(form).toBeHidden();
      const subscription = detail.root.getByRole('listitem', { name: 'build.finished, Notify me' });
      await expect(subscription).toContainText('Live');
      await expect(subscription).toContainText('project="berth"');

      // The server's upstream gets a build; Berth polls it (the fixture answers nextPollMs 1 s) and keeps it.
      appendFileSync(
        upstream,
        `${JSON.stringify({ eventId: 'evt-1', name: 'build.finished', timestamp: new Date().toISOString(), data: { project: 'berth', status: 'passed', build: 41 } })}\n`,
      );
      const inboxNav = app.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Inbox/ });
      await expect(inboxNav).toContainText('1 unread', { timeout: 15_000 });
      // Notify: a toast that opens the Inbox.
      await app.getByRole('button', { name: 'Open Inbox' }).click();
      const list = app.getByRole('list', { name: 'Events' });
      const entry = list.getByRole('listitem', { name: 'build.finished from ci' });
      await expect(entry).toContainText('"build": 41');
      await expect(entry).toContainText('Unread');
      await calm(app);
      await app.screenshot({ path: join(SHOTS, `events-inbox-${scheme}.png`) });
      await app.getByRole('button', { name: 'Mark all read' }).click();
      await expect(entry).not.toContainText('Unread');
      await expect(inboxNav).not.toContainText('unread');
    });
  });
}
