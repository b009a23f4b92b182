import { visibleTools } from '../app/providers/deferred-tools';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusByServer } from '../bench/generators/real-tool-corpus';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { calm, chatTest as test, DOCS_DIR, expect } from './support/berth';

// Tool search end to end: 2,000 tools from 14 fixture servers (the real tools of the npm servers,
// varied), the fake model searching, loading and calling one (e2e/fake-llm/tool-search-steps.ts),
// the call asked about like any other.

const CORPUS_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'corpus-tools.mjs');
const folder = mkdtempSync(join(tmpdir(), 'berth-e2e-corpus-'));
const servers = [...corpusByServer(2_000)];
mkdirSync(folder, { recursive: true });
const mcpServers = Object.fromEntries(
  servers.map(([name, tools]) => {
    const file = join(folder, `${name}.json`);
    writeFileSync(file, JSON.stringify(tools));
    return [name, { command: process.execPath, args: [CORPUS_SERVER], env: { BERTH_CORPUS_TOOLS: file } }];
  }),
);

test.use({ initialConfig: { mcpServers } });
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('with 2,000 tools the model searches, loads and calls one; the call asks first', async ({ app, fakeLlm }) => {
  test.setTimeout(120_000);
  const step = {
    searchAndUse: {
      query: 'read a text file',
      input: { path: 'notes.txt' },
      text: 'The file tool answered: {{lastToolResult}}',
    },
  };
  fakeLlm.script([step, step, step, step]);
  const chat = new ChatPage(app);
  for (const [name] of servers) await chat.waitForServer(name, 60_000);
  await chat.show();
  await chat.newConversation();
  await expect(app.getByRole('button', { name: 'Tools 2000/2000 for this conversation' })).toBeVisible();
  await chat.send('What is in notes.txt?');

  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await expect(dialog.root).toContainText(/read.?text.?file/i);
  const search = chat.messages.getByRole('article', { name: 'Berth: search_tools', exact: true, includeHidden: true });
  await expect(search).toContainText('Berth searched tools for “read a text file”: 8 found');
  const load = chat.messages.getByRole('article', { name: 'Berth: load_tools', exact: true, includeHidden: true });
  await expect(load).toContainText(/Berth loaded a tool: ws-\d\d › \S+/);
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  await chat.waitForIdle();
  await expect(chat.assistantMessages().last()).toContainText('ran with {"path":"notes.txt"}');

  // The model read two tools, then those two and the one it loaded: never the 2,000. With Anthropic every tool is
  // listed deferred (the same list in each request) and the one loaded is read where load_tools answered.
  await fakeLlm.waitForRequests(4);
  const read = fakeLlm.requests.map((request) =>
    visibleTools(request.body?.tools, request.body?.messages ?? []).map((tool) => String(tool.name)),
  );
  expect(read[0]).toEqual(['search_tools', 'load_tools']);
  expect(read[2]).toHaveLength(3);
  expect(new Set(fakeLlm.requests.map((request) => JSON.stringify(request.body?.tools))).size).toBe(1);

  const strip = app.getByRole('region', { name: 'Loaded by the model' });
  await expect(strip).toContainText(/Loaded by the model:\s*ws-\d\d › /);
  await expect(chat.assistantMessages().last().getByTestId('usage-line')).toContainText(/tool search saved ≈ [\d,]+/);
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'tool-search.png') });
  await search.getByRole('button', { name: 'What the model read' }).click();
  await expect(search).toContainText('enabled tools match "read a text file"');

  // The person removes what the model loaded; it stays searchable.
  await strip.getByRole('button', { name: /^Remove .* \(loaded by the model\)$/ }).click();
  await expect(strip).toContainText('the model has loaded no tool yet');
  await app.getByRole('button', { name: 'Tools 2000/2000 for this conversation' }).click();
  const panel = app.getByRole('region', { name: 'Tool search' });
  await expect(panel).toContainText('2,000 tools are enabled, more than 128');
  await calm(app);
  await app.locator('.tools-popover').screenshot({ path: join(DOCS_DIR, 'screenshots', 'tool-search-panel.png') });
});
