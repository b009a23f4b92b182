import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { SettingsPage } from './pages/settings-page';
import { calm, chatTest as test, DOCS_DIR, everythingServerConfig, expect, toolNamed } from './support/berth';

// The built-in Anthropic provider against the fake Anthropic API (its key in
// the host's environment): its models fetched from GET /v1/models into
// Settings and the model picker, and a model marked as taking no images sent a
// note instead of the image a tool returned, with the notice in the chat.

test.use({
  viewport: { width: 1280, height: 980 },
  initialConfig: { mcpServers: { everything: everythingServerConfig() } },
});

const NOTE = '[image omitted: Claude Haiku 3 does not take images]';

test("fetches Anthropic's models in Settings, picks a fetched one in a conversation, and leaves images out for a model marked as taking none", async ({
  app,
  fakeLlm,
}) => {
  const settings = new SettingsPage(app);
  await settings.show();
  const section = app.getByRole('region', { name: 'Model providers' });
  const row = section
    .getByRole('list', { name: 'Model providers' })
    .getByRole('listitem')
    .filter({ hasText: 'Anthropic' });
  await expect(row).toContainText('4 models');

  await row.getByRole('button', { name: 'Edit Anthropic' }).click();
  const edit = section.getByRole('form', { name: 'Edit Anthropic' });
  await edit.getByRole('button', { name: 'Fetch models' }).click();
  // Berth's four, and two more the key can use.
  await expect(edit.getByText('Found 6 models (2 new). Save to keep them.')).toBeVisible();
  expect(fakeLlm.modelRequests.map((request) => request.path)).toEqual(['/v1/models']);
  const table = edit.getByRole('table', { name: 'Models of Anthropic' });
  await expect(table.getByRole('row')).toHaveCount(7);
  await expect(edit.getByLabel('claude-3-haiku-20240307 takes images')).toBeChecked();
  // This person's Claude Haiku 3 is to see no images.
  await edit.getByLabel('claude-3-haiku-20240307 takes images').uncheck();
  await edit.getByRole('button', { name: 'Test connection to Anthropic' }).click();
  await expect(edit.getByRole('status').filter({ hasText: 'Connected.' })).toBeVisible();
  await calm(app);
  await section.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  // Only the settings pane scrolls in the picture: the window itself stays put (header and sidebar whole).
  await app.evaluate(() => window.scrollTo(0, 0));
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'providers-anthropic.png') });
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('6 models');

  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  await app.getByRole('button', { name: /^Model: / }).click();
  const anthropic = app.getByRole('menu').getByRole('group', { name: 'Anthropic' });
  await expect(anthropic.getByRole('menuitemradio')).toHaveCount(6);
  await expect(anthropic.getByRole('menuitemradio', { name: 'Claude Sonnet 4.5', exact: true })).toBeVisible();
  await anthropic.getByRole('menuitemradio', { name: 'Claude Haiku 3', exact: true }).click();
  await expect(app.getByRole('button', { name: /^Model: Claude Haiku 3\b/ })).toBeVisible();

  // server-everything's get-tiny-image returns a PNG: the model is sent a note in its place.
  await chat.waitForServer('everything');
  fakeLlm.script([
    toolNamed('get-tiny-image', {}, 'Let me get the image.'),
    { text: 'I was told an image was left out.' },
  ]);
  await chat.send('Show me the tiny image');
  const dialog = new PendingDialog(app);
  await dialog.expectKind('tool-call');
  await dialog.allow('Allow once');
  await dialog.expectClosed();
  await expect(chat.assistantMessages().last()).toContainText('I was told an image was left out.');
  await expect(
    app
      .getByRole('note')
      .filter({ hasText: 'Claude Haiku 3 does not take images, so an image in this conversation was not sent to it' }),
  ).toBeVisible();

  const [first, second] = fakeLlm.requests;
  expect([first?.body?.model, second?.body?.model]).toEqual(['claude-3-haiku-20240307', 'claude-3-haiku-20240307']);
  const sent = JSON.stringify(second?.body?.messages);
  expect(sent).toContain(NOTE);
  expect(sent).not.toContain('"type":"image"');
  // The card still shows the person the image the tool returned.
  await expect(chat.toolCard('get-tiny-image').getByRole('img')).toBeVisible();
  await chat.waitForIdle();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'chat-image-omitted.png') });
});
