import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a message that got no reply (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('stays its own message, marked with why; the next one is sent alone; Discard offers Undo', async ({
      app,
      fakeLlm,
    }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      fakeLlm.script([
        {
          error: {
            status: 400,
            type: 'invalid_request_error',
            message: 'messages.0: this request was refused by the test',
          },
        },
        { text: 'Tides follow the moon: two highs and two lows a day on most coasts.' },
      ]);
      await chat.send('When is high tide at the pier?');
      await chat.waitForIdle();
      const mark = app.locator('[data-failed-message]');
      await expect(mark).toContainText('No reply to this message');
      await expect(mark).toContainText('refused by the test');
      await expect(app.getByRole('alert')).toHaveCount(0);
      await expect(mark.getByRole('button', { name: 'Retry', exact: true })).toBeVisible();
      await app.screenshot({ path: join(DOCS, `failed-message-${scheme}.png`) });

      await chat.send('How do tides work?');
      await chat.waitForIdle();
      await expect(chat.assistantMessages().last()).toContainText('two highs and two lows');
      // Sent alone, not glued to the failed one; the failed one keeps its mark above.
      expect(fakeLlm.requests[1]?.body?.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'How do tides work?' }] },
      ]);
      await expect(chat.personMessages()).toHaveCount(2);
      await expect(mark).toHaveCount(1);
      await app.screenshot({ path: join(DOCS, `failed-message-then-next-${scheme}.png`) });

      await mark.getByRole('button', { name: 'Discard', exact: true }).click();
      await expect(chat.personMessages()).toHaveCount(1);
      const undo = app.getByRole('button', { name: 'Undo', exact: true });
      await expect(undo).toBeVisible();
      await undo.click();
      await expect(chat.personMessages()).toHaveCount(2);
      await expect(app.locator('[data-failed-message]')).toHaveCount(1);
    });
  });
}
