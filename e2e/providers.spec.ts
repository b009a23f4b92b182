import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { SettingsPage } from './pages/settings-page';
import { FakeOpenAiModels } from './support/fake-openai-models';
import { calm, DOCS_DIR, expect, test } from './support/berth';

// An Ollama-style provider (no key) pointing at a fake OpenAI-compatible
// server that lists models. The fake here serves only GET /v1/models; the
// chat-completions fake (e2e/fake-llm/fake-openai.ts) comes with the
// OpenAI-compatible client on its own branch.

let fake: FakeOpenAiModels;
test.beforeEach(async () => {
  fake = await FakeOpenAiModels.start({ models: ['llama3.1:8b', 'qwen3:4b'] });
});
test.afterEach(async () => {
  await fake.close();
});

test.use({ viewport: { width: 1280, height: 980 } });

test('adds an Ollama-style provider, fetches its models, and picks one in a new conversation under its provider', async ({ app }) => {
  const settings = new SettingsPage(app);
  await settings.show();
  const section = app.getByRole('region', { name: 'Model providers' });
  await expect(section.getByText(/No other providers yet/)).toBeVisible();

  await section.getByRole('button', { name: 'Add provider' }).click();
  const form = section.getByRole('form', { name: 'Add a provider' });
  // The Ollama preset is picked and fills its address; ours is the fake's.
  await expect(form.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await form.getByLabel('Name').fill('Ollama');
  await form.getByLabel('Base URL').fill(fake.baseUrl);
  await form.getByRole('button', { name: 'Add provider' }).click();

  const edit = section.getByRole('form', { name: 'Edit Ollama' });
  await edit.getByRole('button', { name: 'Fetch models' }).click();
  await expect(edit.getByText('Found 2 models (2 new). Save to keep them.')).toBeVisible();
  expect(fake.requests).toContain('GET /v1/models');
  // Small local models often cannot call tools.
  await edit.getByLabel('qwen3:4b supports tools').uncheck();
  await edit.getByRole('button', { name: 'Test connection to Ollama' }).click();
  await expect(edit.getByRole('status').filter({ hasText: 'Connected.' })).toBeVisible();
  await calm(app);
  await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'providers.png') });
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toBeHidden();
  const row = section.getByRole('list', { name: 'Model providers' }).getByRole('listitem').filter({ hasText: 'Ollama' });
  await expect(row).toContainText('2 models');
  await expect(row).toContainText('No key needed');

  // No Anthropic key, but a local provider is ready: chat is open.
  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  await app.getByRole('button', { name: /^Model: / }).click();
  const menu = app.getByRole('menu');
  const ollama = menu.getByRole('group', { name: 'Ollama' });
  await expect(ollama.getByRole('menuitemradio')).toHaveText(['llama3.1:8b', 'qwen3:4b · no tools']);
  await expect(menu.getByRole('group', { name: 'Anthropic' }).getByRole('menuitemradio')).toHaveCount(4);
  await ollama.getByRole('menuitemradio', { name: 'llama3.1:8b' }).click();
  await expect(app.getByRole('button', { name: 'Model: llama3.1:8b (Ollama)' })).toBeVisible();
  // Its provider needs no key: the message box can send.
  await expect(chat.input).toHaveAttribute('placeholder', /^Message llama3.1:8b…/);
  await chat.input.fill('Hello');
  await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
});
