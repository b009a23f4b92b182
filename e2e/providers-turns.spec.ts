import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { FakeOpenAi } from './fake-llm/fake-openai';
import type { RecordedOpenAiRequest } from './fake-llm/fake-openai';
import { everythingServerConfig, expect, test as base } from './support/berth';

// Retry, edit-and-resend, Stop and an empty answer through an Ollama-style
// provider (the fake OpenAI-compatible server, configured in settings.json, no
// Anthropic key). The fake's request log shows what history each request sent.

const MODEL = 'llama3.1:8b';

const test = base.extend<{ fakeOpenAi: FakeOpenAi }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  fakeOpenAi: async ({}, use) => {
    const fake = await FakeOpenAi.start({ models: [MODEL] });
    try {
      await use(fake);
    } finally {
      await fake.close();
    }
  },
  initialSettings: async ({ fakeOpenAi }, use) => {
    await use({
      providers: [
        { id: 'ollama', label: 'Ollama', preset: 'ollama', baseUrl: fakeOpenAi.url, models: [{ id: MODEL }] },
      ],
    });
  },
});

/** The request's messages without the system prompt (server instructions come and go with servers). */
function history(request: RecordedOpenAiRequest | undefined): Array<Record<string, unknown>> {
  return (request?.body?.messages ?? []).filter((message) => message.role !== 'system') as Array<
    Record<string, unknown>
  >;
}

async function startConversation(chat: ChatPage): Promise<void> {
  await chat.show();
  await chat.newConversation();
  await expect(chat.page.getByRole('button', { name: `Model: ${MODEL} (Ollama)` })).toBeVisible();
}

test.describe('with server-everything', () => {
  test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  test('retry drops the reply and its tool round; edit-and-resend sends only the edited text', async ({
    app,
    fakeOpenAi,
  }) => {
    const chat = new ChatPage(app);
    await startConversation(chat);
    await chat.waitForServer('everything');

    fakeOpenAi.script([
      { text: 'Let me echo it.', toolUses: [{ name: 'everything__echo', input: { message: 'first round' } }] },
      { text: 'The tool said: {{lastToolResult}}' },
    ]);
    await chat.send('Echo something');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await expect(chat.assistantMessages().last()).toContainText('The tool said: Echo: first round');
    await chat.waitForIdle();
    expect(fakeOpenAi.requests).toHaveLength(2);

    // Retry: the same question again, without the reply, its call or its result.
    fakeOpenAi.script([{ text: 'A second try, without tools.' }]);
    await app.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect(chat.assistantMessages().last()).toContainText('A second try, without tools.');
    await chat.waitForIdle();
    await expect(chat.messages).not.toContainText('The tool said');
    await expect(chat.toolCard('echo')).toHaveCount(0);
    expect(fakeOpenAi.requests).toHaveLength(3);
    expect(history(fakeOpenAi.requests[2])).toEqual([{ role: 'user', content: 'Echo something' }]);

    // Edit and resend: only the edited text goes out; nothing of the question or the answer it replaced.
    fakeOpenAi.script([{ text: 'Answer to the edited question.' }]);
    await chat.personMessages().last().getByRole('button', { name: 'Edit' }).click();
    const editor = app.getByRole('textbox', { name: 'Edit your message' });
    await editor.fill('Say goodbye instead');
    await editor.press('Enter');
    await expect(chat.assistantMessages().last()).toContainText('Answer to the edited question.');
    await expect(editor).toBeHidden();
    await chat.waitForIdle();
    await expect(chat.messages).not.toContainText('Echo something');
    await expect(chat.messages).not.toContainText('A second try');
    expect(fakeOpenAi.requests).toHaveLength(4);
    expect(history(fakeOpenAi.requests[3])).toEqual([{ role: 'user', content: 'Say goodbye instead' }]);
    expect(fakeOpenAi.requests.map((request) => request.body?.model)).toEqual([MODEL, MODEL, MODEL, MODEL]);
  });
});

test('Stop mid-stream keeps the partial reply, marked stopped by you; an empty answer is shown, and its usage stays after a reload', async ({
  app,
  fakeOpenAi,
}) => {
  const chat = new ChatPage(app);
  await startConversation(chat);

  fakeOpenAi.script([{ text: 'Once upon a time in a harbour far away', holdOpen: true, delayMsPerChunk: 20 }]);
  await chat.send('Tell me a long story');
  await expect(chat.streaming).toContainText('Once upon a time');
  await chat.stop();
  await expect(chat.messages.getByText('Stopped by you')).toBeVisible();
  await expect(chat.streaming).toBeHidden();
  // What streamed before Stop is kept (issue 34: nothing the model wrote is lost).
  await expect(chat.messages).toContainText('Once upon a time');

  // The next request carries both questions and the stopped reply's text; the model answers with nothing.
  fakeOpenAi.script([{ text: '', usage: { prompt_tokens: 1_234, completion_tokens: 0 } }]);
  await chat.send('Then a short one');
  const note = chat.messages.getByText('The model answered with nothing. Retry, or rephrase your message.');
  await expect(note).toBeVisible();
  await chat.waitForIdle();
  const sent = JSON.stringify(history(fakeOpenAi.requests[1]));
  expect(sent).toContain('Tell me a long story');
  expect(sent).toContain('Then a short one');
  expect(sent).toContain('Once upon a time');
  const reply = chat.assistantMessages().last();
  await expect(reply.getByTestId('usage-line').locator('summary')).toHaveText('1,234 in · 0 out');
  await expect(app.getByTestId('conversation-usage')).toHaveText('Total: 1,234 in · 0 out');

  await app.reload();
  await chat.show();
  await chat.conversation('Tell me a long story').getByRole('button').first().click();
  await expect(
    chat.messages.getByText('The model answered with nothing. Retry, or rephrase your message.'),
  ).toBeVisible();
  await expect(chat.assistantMessages().last().getByTestId('usage-line').locator('summary')).toHaveText(
    '1,234 in · 0 out',
  );
  await expect(app.getByTestId('conversation-usage')).toHaveText('Total: 1,234 in · 0 out');
  await app.screenshot({ path: test.info().outputPath('empty-answer.png') });
});
