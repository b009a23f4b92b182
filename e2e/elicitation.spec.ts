import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { chatTest as test, everythingServerConfig, expect, toolNamed } from './support/berth';

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

// server-everything's `trigger-elicitation-request` asks for a form with every
// field type (only `name` required) and returns what it received.
test.describe('elicitation', () => {
  test('the form is filled and validated in Berth, and the server receives the values', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed('trigger-elicitation-request'), { text: 'Thanks: {{lastToolResult}}' }]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask me some questions');

    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await expect(dialog.root).toContainText('Please provide inputs for the following fields');

    // Defaults are filled in.
    await expect(dialog.field('String with default')).toHaveValue('It was a dark and stormy night.');
    await expect(dialog.field(/^Integer/)).toHaveValue('42');
    await expect(dialog.field(/^Titled Single Select Enum/)).toHaveValue('hero-1');
    await expect(dialog.root.getByRole('checkbox', { name: 'Guitar' })).toBeChecked();

    // Nothing is sent while the form has problems.
    await dialog.field(/^Integer/).fill('500');
    await dialog.field('String with email format').fill('not-an-email');
    await dialog.button('Accept').click();
    await expect(dialog.root).toContainText('Enter a value for String: it is required');
    await expect(dialog.root).toContainText('Enter a number between 1 and 100');
    await expect(dialog.root).toContainText('Enter an email address like name@example.com');

    await dialog.field(/^String(\s*\*| required)?$/).fill('Ada Lovelace');
    await dialog.field(/^Integer/).fill('7');
    await dialog.field('String with email format').fill('ada@example.com');
    await dialog.field('String with date format').fill('1815-12-10');
    await dialog.root.getByRole('checkbox', { name: 'Piano' }).check();
    await dialog.field(/^Titled Single Select Enum/).selectOption({ label: 'Wonder Woman' });
    await dialog.button('Accept').click();
    await dialog.expectClosed();

    const card = chat.toolCard('trigger-elicitation-request');
    await expect(card).toContainText('Done');
    await expect(card).toContainText('- Name: Ada Lovelace');
    await expect(card).toContainText('- Email: ada@example.com');
    await expect(card).toContainText('"integer": 7');
    await expect(card).toContainText('"birthdate": "1815-12-10"');
    await expect(card).toContainText('"titledSingleSelectEnum": "hero-3"');
    await expect(card).toContainText(/"untitledMultipleSelectEnum": \[\s*"Guitar",\s*"Piano"\s*\]/);
    await fakeLlm.waitForRequests(2);
    expect(JSON.stringify(fakeLlm.requests[1]!.body?.messages.at(-1))).toContain('Ada Lovelace');
  });

  test('declining tells the server so', async ({ app, fakeLlm }) => {
    fakeLlm.script([toolNamed('trigger-elicitation-request'), { text: 'OK: {{lastToolResult}}' }]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask me');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await dialog.button('Decline').click();
    await dialog.expectClosed();
    await expect(chat.toolCard('trigger-elicitation-request')).toContainText('"action": "decline"');
  });

  test('URL mode shows the domain, opens the page only after consent, and keeps a waiting note', async ({
    app,
    fakeLlm,
  }) => {
    // A page the fake serves, so the new tab loads without any network.
    const url = `${fakeLlm.url}/__fake/requests?from=berth-e2e`;
    fakeLlm.script([
      toolNamed('trigger-url-elicitation', { url, message: 'Sign in to the harbour office' }),
      { text: 'Signed in: {{lastToolResult}}' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Log me in');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await expect(dialog.root).toContainText('Sign in to the harbour office');
    await expect(dialog.root.getByTestId('elicitation-domain')).toHaveText('127.0.0.1');
    await expect(dialog.root).toContainText(url);
    await expect(dialog.button('Open in browser')).toBeDisabled();

    await dialog.root.getByRole('checkbox', { name: /I want to open 127\.0\.0\.1/ }).check();
    const popup = app.waitForEvent('popup');
    await dialog.button('Open in browser').click();
    const page = await popup;
    await page.waitForURL(url);
    await page.close();
    await dialog.expectClosed();

    await expect(chat.toolCard('trigger-url-elicitation')).toContainText('User completed the URL elicitation flow');
    await app.getByTestId('pending-tray').click();
    const note = app
      .getByRole('listitem')
      .filter({ has: app.getByRole('button', { name: 'Stop waiting for 127.0.0.1' }) });
    await expect(note).toContainText('127.0.0.1');
    await note.getByRole('button', { name: 'Stop waiting for 127.0.0.1' }).click();
    await expect(note).toHaveCount(0);
  });
});

// The slow form: the person takes longer than the server's request timeout (1 s here).
test.describe('elicitation, answered after the request timeout', () => {
  test.use({
    initialConfig: {
      mcpServers: { everything: { ...everythingServerConfig(), timeouts: { requestMs: 1_000, maxTotalMs: 1_000 } } },
    },
  });

  test('the card waits for the answer, its Answer button reopens the form, and the answer is used', async ({
    app,
    fakeLlm,
  }) => {
    fakeLlm.script([toolNamed('trigger-elicitation-request'), { text: 'Thanks: {{lastToolResult}}' }]);
    const chat = new ChatPage(app);
    await chat.waitForServer('everything');
    await chat.show();
    await chat.newConversation();
    await chat.send('Ask me, I am slow');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('elicitation');
    await dialog.root.getByRole('button', { name: 'Later', exact: true }).click();
    await dialog.expectClosed();

    const card = chat.toolCard('trigger-elicitation-request');
    await expect(card).toContainText('Waiting for your answer');
    // Past the 1 s timeout (and the 1 s total): still waiting, nothing sent back to the model.
    await app.waitForTimeout(1_600);
    await expect(card).toContainText('Waiting for your answer');
    expect(fakeLlm.requests).toHaveLength(1);

    await card.getByRole('button', { name: 'Answer' }).click();
    await dialog.expectKind('elicitation');
    await dialog.field(/^String(\s*\*| required)?$/).fill('Ada Lovelace');
    await dialog.button('Accept').click();
    await dialog.expectClosed();
    await expect(card).toContainText('Done');
    await expect(card).toContainText('- Name: Ada Lovelace');
  });
});
