import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');
const PROMPT = 'You are a harbour pilot. Answer briefly, in nautical terms, and name the tide when it matters.';

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`conversation settings (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('sets a system prompt and parameters from the header with the keyboard; the model receives them', async ({
      app,
      fakeLlm,
    }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      const trigger = app.getByRole('button', { name: 'Conversation settings' });
      await trigger.focus();
      await app.keyboard.press('Enter');
      const dialog = app.getByRole('dialog', { name: 'Conversation settings' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await dialog.getByRole('textbox', { name: 'System prompt' }).fill(PROMPT);
      await dialog.getByRole('spinbutton', { name: 'Temperature' }).fill('0.3');
      await dialog.getByRole('spinbutton', { name: 'Longest reply (tokens)' }).fill('800');
      await app.screenshot({ path: join(DOCS, `conversation-settings-${scheme}.png`) });
      await dialog.getByRole('spinbutton', { name: 'Longest reply (tokens)' }).press('Enter');
      await expect(dialog).toBeHidden();
      await expect(trigger).toBeFocused();

      fakeLlm.script([{ text: 'Ebb tide at the bar: hold at the outer buoy.' }]);
      await chat.send('Can we cross the bar now?');
      await chat.waitForIdle();
      const body = fakeLlm.requests.at(-1)?.body;
      expect(body).toMatchObject({ temperature: 0.3, max_tokens: 800 });
      expect(String(body?.system)).toContain(PROMPT);
    });
  });
}
