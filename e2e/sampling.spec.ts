import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { chatTest as test, everythingServerConfig, expect, toolNamed } from './support/berth';

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

// server-everything's `trigger-sampling-request` sends `sampling/createMessage`
// and returns the result it got as text; the fake model answers both the chat
// and the sampling call, in the order scripted.
test.describe('sampling review', () => {
  test('the person edits the prompt and the answer, and the edited answer reaches the server', async ({ app, fakeLlm }) => {
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
    await dialog.messageEditor(1).fill('Name a harbour in the Netherlands, edited by the person');
    await dialog.button('Approve & generate').click();

    await dialog.expectKind('sampling-answer');
    await expect(dialog.answerEditor).toHaveValue('The model suggests Rotterdam.');
    await dialog.answerEditor.fill('Rotterdam, as the person corrected it');
    await dialog.button('Send edited answer').click();
    await dialog.expectClosed();

    // The model was asked with the edited prompt…
    await fakeLlm.waitForRequests(2);
    expect(JSON.stringify(fakeLlm.requests[1]!.body?.messages)).toContain('edited by the person');
    // …and the server got the edited answer, which its tool result shows.
    const card = chat.toolCard('trigger-sampling-request');
    await expect(card).toContainText('Done');
    await expect(card).toContainText('Rotterdam, as the person corrected it');
    await expect(card).not.toContainText('The model suggests Rotterdam.');
  });

  test('rejecting the request gives the server an error, shown in the tool result', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed('trigger-sampling-request', { prompt: 'Anything' }), { text: 'After: {{lastToolResult}}' }]);
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
});
