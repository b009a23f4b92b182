import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

const BEGINNING =
  'A lighthouse keeper’s day starts before dawn. The lamp is checked, the lens is cleaned of salt, and the log records ' +
  'the weather, the ships that passed and the state of the sea. In the afternoon the keeper';
const REST = ' paints the railings, mends what the wind broke and sleeps a little before the long night watch.';

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a reply that was cut off (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('keeps the text the model wrote, says why it stopped, and Continue writes the rest', async ({
      app,
      fakeLlm,
    }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      // The network goes away after 38 words: what was on screen stays, marked "Cut off".
      fakeLlm.script([
        { text: `${BEGINNING} climbs the tower again`, dropAfterDeltas: 38, delayMsPerChunk: 15 },
        { text: REST },
      ]);
      await chat.send('Describe a lighthouse keeper’s day');
      await chat.waitForIdle();
      const reply = chat.assistantMessages().last();
      await expect(reply).toContainText('In the afternoon the keeper');
      await expect(reply).toContainText(/Cut off: /);
      await expect(app.getByRole('alert')).toHaveCount(0);
      const go = app.getByRole('button', { name: 'Continue', exact: true });
      await expect(go).toBeVisible();
      await expect(app.getByRole('button', { name: 'Retry', exact: true })).toBeVisible();
      await app.screenshot({ path: join(DOCS, `partial-cut-off-${scheme}.png`) });

      // Keyboard: Continue is reached by focus and pressed with Enter.
      await go.focus();
      await app.keyboard.press('Enter');
      await chat.waitForIdle();
      await expect(chat.assistantMessages().last()).toContainText('before the long night watch');
      await expect(go).toHaveCount(0);
      // The model was asked to go on in a user turn the person never wrote (claude-sonnet-5 takes no prefill).
      const last = fakeLlm.requests[1]?.body?.messages.at(-1);
      expect(last).toMatchObject({
        role: 'user',
        content: [{ type: 'text', text: 'Continue from where you stopped.' }],
      });
      await expect(chat.personMessages()).toHaveCount(1);
      await app.screenshot({ path: join(DOCS, `partial-continued-${scheme}.png`) });
    });
  });
}
