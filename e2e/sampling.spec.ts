import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import { SettingsPage } from './pages/settings-page';
import { calm, chatTest as test, DOCS_DIR, everythingServerConfig, expect, toolNamed } from './support/berth';

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

// server-everything's `trigger-sampling-request` sends `sampling/createMessage`
// and returns the result it got as text; the fake model answers both the chat
// and the sampling call, in the order scripted.
test.describe('sampling review', () => {
  test('the person edits the prompt and the answer, and the edited answer reaches the server', async ({
    app,
    fakeLlm,
  }) => {
    fakeLlm.script([
      toolNamed('trigger-sampling-request', { prompt: 'Name a harbour', maxTokens: 60 }),
      { text: 'The model suggests Rotterdam.' },
      { text: 'Done: {{lastToolResult}}' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask the server to sample');

    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');

    await dialog.expectKind('sampling');
    await expect(dialog.root).toContainText('everything');
    await expect(dialog.root.getByLabel('System prompt')).toHaveValue('You are a helpful test server.');
    await expect(dialog.root).toContainText('0.7');
    await expect(dialog.messageEditor(1)).toHaveValue(/Name a harbour/);
    // Which model, from which provider, and why; the person switches to another.
    const model = dialog.root.getByLabel('Model');
    await expect(model).toHaveValue('claude-sonnet-5');
    await expect(dialog.root.getByTestId('model-provider')).toHaveText('from Anthropic');
    await expect(dialog.root.getByTestId('model-why')).toHaveText(/your default model\.$/);
    await model.selectOption('claude-haiku-4-5');
    await expect(dialog.root.getByTestId('model-why')).toHaveText(
      /^Your choice\. Berth had picked Claude Sonnet 5 \(Anthropic\): /,
    );
    await dialog.messageEditor(1).fill('Name a harbour in the Netherlands, edited by the person');
    await dialog.button('Approve & generate').click();

    await dialog.expectKind('sampling-answer');
    await expect(dialog.root.getByTestId('answered-by')).toHaveText('Claude Haiku 4.5 (Anthropic)');
    await expect(dialog.answerEditor).toHaveValue('The model suggests Rotterdam.');
    await dialog.answerEditor.fill('Rotterdam, as the person corrected it');
    await dialog.button('Send edited answer').click();
    await dialog.expectClosed();

    // The model was asked with the edited prompt…
    await fakeLlm.waitForRequests(2);
    expect(JSON.stringify(fakeLlm.requests[1]!.body?.messages)).toContain('edited by the person');
    expect(fakeLlm.requests[1]!.body?.model).toBe('claude-haiku-4-5');
    // …and the server got the edited answer, which its tool result shows.
    const card = chat.toolCard('trigger-sampling-request');
    await expect(card).toContainText('Done');
    await expect(card).toContainText('Rotterdam, as the person corrected it');
    await expect(card).not.toContainText('The model suggests Rotterdam.');
  });

  test('rejecting the request gives the server an error, shown in the tool result', async ({ app, fakeLlm }) => {
    fakeLlm.script([
      toolNamed('trigger-sampling-request', { prompt: 'Anything' }),
      { text: 'After: {{lastToolResult}}' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask the server to sample');

    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('sampling');
    await dialog.reject('not this time');
    await dialog.expectClosed();

    const card = chat.toolCard('trigger-sampling-request');
    await expect(card).toContainText('Error');
    await expect(card).toContainText('The tool reported an error');
    await expect(card).toContainText('User rejected sampling request');
    // Only the chat reached the model: the rejected request was never sent.
    await expect(chat.assistantMessages().last()).toContainText('After:');
    expect(fakeLlm.requests).toHaveLength(2);
    expect(JSON.stringify(fakeLlm.requests[1]!.body?.messages.at(-1))).toContain('User rejected sampling request');
  });

  test('the person sees the cap in the review and the budget in the Overview, sets the limits there, and hears when the budget is spent', async ({
    app,
    fakeLlm,
  }) => {
    fakeLlm.script([
      toolNamed('trigger-sampling-request', { prompt: 'Write an epic about Rotterdam', maxTokens: 100_000 }),
      { text: 'Sing, muse, of the Maas.', usage: { input_tokens: 1_200, output_tokens: 800 } },
      { text: 'Done: {{lastToolResult}}' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask the server for an epic');

    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Always allow this server');
    await dialog.expectKind('sampling');
    // The server asked for 100,000 tokens; Berth proposes its cap, and says so.
    await expect(dialog.maxTokensField).toHaveValue('4096');
    await expect(dialog.maxTokensNote).toHaveText(
      'The server asked for 100,000; capped at 4,096, this server’s limit per request (change it in its Overview).',
    );
    await expect(dialog.root.getByTestId('review-budget')).toContainText('0 of 100,000 tokens used');
    await dialog.button('Approve & generate').click();
    await dialog.expectKind('sampling-answer');
    await expect(dialog.root.getByTestId('answer-usage')).toContainText(
      'It used 1,200 input + 800 output tokens (max 4,096)',
    );
    await dialog.button('Approve').click();
    await dialog.expectClosed();
    await expect(chat.toolCard('trigger-sampling-request')).toContainText('Sing, muse');
    expect(fakeLlm.requests[1]!.body?.max_tokens).toBe(4_096);

    // The Overview shows what the server spent this Berth session; the person tightens the limits.
    const servers = new ServersPage(app);
    await servers.show();
    const detail = await servers.select('everything');
    await detail.showOverview();
    await expect(detail.samplingBudget).toHaveText('2,000 of 100,000 budget tokens used this session');
    await expect(detail.samplingLimits).toContainText(
      'Counted since Berth started; restarting the server does not reset it.',
    );
    const form = await detail.setSamplingLimits('0', '1500');
    await expect(form.getByRole('alert')).toHaveText('The max tokens per request must be at least 1 token');
    await detail.setSamplingLimits('1000', '1500');
    await expect(form).toBeHidden();
    await expect(detail.samplingLimits).toContainText('At most 1,000 max tokens per request');
    await expect(detail.samplingLimits).toContainText('budget spent: requests are refused');

    // The next request is refused: the server gets the reason, the person a notice.
    fakeLlm.append([
      toolNamed('trigger-sampling-request', { prompt: 'Another epic', maxTokens: 100_000 }),
      { text: 'After: {{lastToolResult}}' },
    ]);
    await chat.show();
    await chat.send('One more epic');
    // A toast: an item of the notifications region.
    const notice = app
      .getByRole('region', { name: /^Notifications/ })
      .getByRole('listitem')
      .filter({ hasText: '“everything” has used up its sampling budget' });
    await expect(notice).toContainText('it has used 2,000 of 1,500 tokens this Berth session');
    await expect(chat.toolCard('trigger-sampling-request', 1)).toContainText('Sampling budget exhausted');
    await expect(chat.assistantMessages().last()).toContainText('After:');
    expect(fakeLlm.requests).toHaveLength(5);

    // The person gives it a fresh budget.
    await servers.show();
    await detail.showOverview();
    await detail.samplingLimits.getByRole('button', { name: 'Reset budget' }).click();
    await expect(detail.samplingBudget).toHaveText('0 of 1,500 budget tokens used this session');
  });

  test('the person ranks a model in Settings; the ranks are kept across a reload', async ({ app }) => {
    const settings = new SettingsPage(app);
    await settings.show();
    const haiku = settings.samplingModelRow('claude-haiku-4-5');
    await expect(haiku.getByRole('rowheader')).toHaveText('Claude Haiku 4.5 Anthropic');
    const intelligence = haiku.getByLabel('Intelligence rank of Claude Haiku 4.5 (Anthropic)');
    await expect(intelligence).toHaveValue('4');
    await intelligence.fill('0');
    await expect(haiku.getByRole('alert')).toHaveText(
      'Ranks are whole numbers from 1 (cheapest, fastest, most capable) to 100.',
    );
    await intelligence.fill('1');
    await haiku.getByLabel('Tier of Claude Haiku 4.5 (Anthropic)').selectOption('smart');
    await haiku.getByRole('button', { name: 'Save Claude Haiku 4.5 (Anthropic)' }).click();
    await expect(haiku).toContainText('yours');

    await app.reload();
    await settings.show();
    const again = settings.samplingModelRow('claude-haiku-4-5');
    await expect(again.getByLabel('Intelligence rank of Claude Haiku 4.5 (Anthropic)')).toHaveValue('1');
    await expect(again.getByLabel('Tier of Claude Haiku 4.5 (Anthropic)')).toHaveValue('smart');
    await again.getByRole('button', { name: 'Reset Claude Haiku 4.5 (Anthropic)' }).click();
    await expect(again.getByLabel('Intelligence rank of Claude Haiku 4.5 (Anthropic)')).toHaveValue('4');
    await expect(again).not.toContainText('yours');
  });
});

// The person let sampling reason (the reasoning control's last item, settings.json `reasoning.sampling`):
// the answer's review shows the model's thinking folded, as the chat does, and counts its tokens.
test.describe('sampling review with reasoning allowed', () => {
  test.use({ initialSettings: { reasoning: { level: 'low', sampling: true } } });

  test('the answer shows the model’s thinking folded and its reasoning tokens; the server gets only the answer', async ({
    app,
    fakeLlm,
  }) => {
    fakeLlm.script([
      toolNamed('trigger-sampling-request', { prompt: 'Name a harbour', maxTokens: 60 }),
      { thinking: 'A big harbour in Europe: Rotterdam is the largest.', text: 'Rotterdam.' },
      { text: 'Done: {{lastToolResult}}' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask the server to sample');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('sampling');
    await dialog.button('Approve & generate').click();

    await dialog.expectKind('sampling-answer');
    const thought = dialog.root.getByRole('button', { name: /^Thought for/ });
    await expect(thought).toHaveAttribute('aria-expanded', 'false');
    await expect(dialog.root.getByTestId('answer-usage')).toContainText(
      /output tokens, \d+ of them reasoning \(max 60\)/,
    );
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'sampling-reasoning-light.png') });
    await thought.click();
    await expect(dialog.root.getByRole('region', { name: 'The model’s reasoning' })).toHaveText(
      'A big harbour in Europe: Rotterdam is the largest.',
    );
    await app.emulateMedia({ colorScheme: 'dark' });
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'sampling-reasoning-dark.png') });
    await dialog.button('Approve').click();
    await dialog.expectClosed();
    const card = chat.toolCard('trigger-sampling-request');
    await expect(card).toContainText('Rotterdam.');
    await expect(card).not.toContainText('largest');
  });
});

// A server that sends 50 sampling requests in its first second
// (e2e/fixtures/servers/sampling-flood.mjs): Berth's rate limit refuses 40 at
// once, and the person declines the 10 left in one action.
const FLOOD = {
  command: process.execPath,
  args: [join(import.meta.dirname, 'fixtures', 'servers', 'sampling-flood.mjs')],
  env: { FLOOD_COUNT: '50' },
};

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a server flooding sampling requests (${scheme})`, () => {
    test.use({ initialConfig: { mcpServers: { flood: FLOOD } }, colorScheme: scheme });

    test('the review says how many more wait; "Decline all" empties the queue and refuses the server for the session', async ({
      app,
    }) => {
      const dialog = new PendingDialog(app);
      await dialog.expectKind('sampling');
      const bar = dialog.root.getByTestId('sampling-flood');
      await expect(bar).toContainText('9 more requests from “flood” are waiting after this one.');
      await bar.getByLabel('Also refuse its sampling for the rest of this session').check();
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `sampling-flood-${scheme}.png`) });

      await bar.getByRole('button', { name: 'Decline all 10 from “flood”' }).click();
      await dialog.expectClosed();
      // The session's refusal shows where the person can undo it.
      await new SettingsPage(app).show();
      const row = app.getByLabel('Sampling policy per server').locator('[data-server="flood"]');
      await expect(row).toContainText('Refuse this session');
      await row.scrollIntoViewIfNeeded();
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `sampling-refused-session-${scheme}.png`) });
    });
  });
}
