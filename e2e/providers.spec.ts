import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { SettingsPage } from './pages/settings-page';
import { PendingDialog } from './pages/pending-dialog';
import { FakeOpenAi } from './fake-llm/fake-openai';
import { calm, DOCS_DIR, everythingServerConfig, expect, test } from './support/berth';

// An Ollama-style provider (no key) pointing at the fake OpenAI-compatible
// server (models, streamed chat completions with tool_calls deltas), and no
// Anthropic key: a person with only a local model.

let fake: FakeOpenAi;
test.beforeEach(async () => {
  fake = await FakeOpenAi.start({ models: ['llama3.1:8b', 'qwen3:4b'], modelsWithoutTools: ['qwen3:4b'] });
});
test.afterEach(async () => {
  await fake.close();
});

test.use({
  viewport: { width: 1280, height: 980 },
  initialConfig: { mcpServers: { everything: everythingServerConfig() } },
});

test('adds an Ollama-style provider, fetches its models, picks one in a new conversation, and chats with it: a tool call with consent, then the reply', async ({
  app,
}) => {
  const settings = new SettingsPage(app);
  await settings.show();
  const section = app.getByRole('region', { name: 'Model providers' });
  await expect(section.getByText(/No other providers yet/)).toBeVisible();

  await section.getByRole('button', { name: 'Add provider' }).click();
  const form = section.getByRole('form', { name: 'Add a provider' });
  // The Ollama preset is picked and fills its address; ours is the fake's.
  await expect(form.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await form.getByLabel('Name').fill('Ollama');
  await form.getByLabel('Base URL').fill(fake.url);
  await form.getByRole('button', { name: 'Add provider' }).click();

  const edit = section.getByRole('form', { name: 'Edit Ollama' });
  await edit.getByRole('button', { name: 'Fetch models' }).click();
  await expect(edit.getByText('Found 2 models (2 new). Save to keep them.')).toBeVisible();
  expect(fake.modelListRequests).toBeGreaterThan(0);
  // Small local models often cannot call tools.
  await edit.getByLabel('qwen3:4b supports tools').uncheck();
  await edit.getByRole('button', { name: 'Test connection to Ollama' }).click();
  await expect(edit.getByRole('status').filter({ hasText: 'Connected.' })).toBeVisible();
  await calm(app);
  await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'providers.png') });
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toBeHidden();
  const row = section
    .getByRole('list', { name: 'Model providers' })
    .getByRole('listitem')
    .filter({ hasText: 'Ollama' });
  await expect(row).toContainText('2 models');
  await expect(row).toContainText('No key needed');

  // No Anthropic key, but a local provider is ready: chat is open.
  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  // Nobody chose a default and Claude has no key: a new conversation already uses the ready provider's first model.
  await expect(app.getByRole('button', { name: 'Model: llama3.1:8b (Ollama)' })).toBeVisible();
  await app.getByRole('button', { name: /^Model: / }).click();
  const menu = app.getByRole('menu');
  const ollama = menu.getByRole('group', { name: 'Ollama' });
  await expect(ollama.getByRole('menuitemradio')).toHaveText([/llama3\.1:8b$/, 'qwen3:4b · no tools']);
  await expect(ollama.getByRole('menuitemradio', { name: 'llama3.1:8b' })).toHaveAttribute('aria-checked', 'true');
  await expect(menu.getByRole('group', { name: 'Anthropic' }).getByRole('menuitemradio')).toHaveCount(4);
  await ollama.getByRole('menuitemradio', { name: 'llama3.1:8b' }).click();
  await expect(app.getByRole('button', { name: 'Model: llama3.1:8b (Ollama)' })).toBeVisible();
  // Its provider needs no key: the message box can send.
  await expect(chat.input).toHaveAttribute('placeholder', /^Message llama3.1:8b…/);
  await chat.input.fill('Hello');
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();

  // A turn through the provider: the model calls server-everything's echo (streamed as tool_calls deltas), the person allows it, the reply streams.
  await chat.waitForServer('everything');
  fake.script([
    { text: 'Let me echo that.', toolUses: [{ name: 'everything__echo', input: { message: 'hello from llama' } }] },
    { text: 'The tool said: {{lastToolResult}}' },
  ]);
  await chat.send('Echo something');
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await expect(dialog.argumentsEditor).toHaveValue(/"message": "hello from llama"/);
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  await expect(chat.toolCard('echo')).toContainText('Echo: hello from llama');
  await expect(chat.assistantMessages().last()).toContainText('The tool said: Echo: hello from llama');
  expect(fake.requests.map((request) => request.body?.model)).toEqual(['llama3.1:8b', 'llama3.1:8b']);
  expect(fake.requests[1]?.body?.messages.find((message) => message.role === 'tool')?.content).toContain(
    'Echo: hello from llama',
  );

  // The model marked as taking no tools: its reply comes without them, and the chat says why.
  await chat.waitForIdle();
  await app.getByRole('button', { name: /^Model: / }).click();
  await app
    .getByRole('menu')
    .getByRole('menuitemradio', { name: /^qwen3:4b/ })
    .click();
  fake.script([{ text: 'Hi from qwen.' }]);
  await chat.send('Hello again');
  await expect(chat.assistantMessages().last()).toContainText('Hi from qwen.');
  await expect(
    app.getByRole('note').filter({
      hasText: 'qwen3:4b cannot use tools, so this reply has none. Pick another model in the message box to use tools.',
    }),
  ).toBeVisible();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'providers-chat.png') });
  expect(fake.requests[2]?.body).toMatchObject({ model: 'qwen3:4b' });
  expect(fake.requests[2]?.body?.tools).toBeUndefined();
});
