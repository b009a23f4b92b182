import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`branches and versions (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('an earlier message edited branches the conversation; a reply regenerated with another model shows 2 / 2', async ({
      app,
      fakeLlm,
    }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      fakeLlm.script([
        { text: 'Kiel in a day: the harbour, the Kiellinie walk and fish rolls at the fjord.' },
        { text: 'Lübeck: the Holstentor, marzipan at Niederegger and the old town island.' },
        { text: 'A rainy day in Kiel: the Zoological Museum, the Kunsthalle and a covered market.' },
      ]);
      await chat.send('Plan a day in Kiel');
      await chat.waitForIdle();
      await chat.send('And one in Lübeck?');
      await chat.waitForIdle();

      // Edit the first message: the conversation branches there.
      const first = chat.personMessages().first();
      await first.hover();
      await first.getByRole('button', { name: 'Edit', exact: true }).click();
      const input = app.getByRole('textbox', { name: 'Edit your message' });
      await input.fill('Plan a rainy day in Kiel');
      await input.press('Enter');
      await chat.waitForIdle();
      await expect(chat.personMessages()).toHaveCount(1);
      await expect(chat.assistantMessages().last()).toContainText('Zoological Museum');
      const versions = chat.personMessages().first().getByRole('group', { name: 'Version 2 of 2' });
      await expect(versions).toHaveText('2 / 2');
      expect(fakeLlm.requests.at(-1)?.body?.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Plan a rainy day in Kiel' }] },
      ]);
      await app.screenshot({ path: join(DOCS, `branch-earlier-message-${scheme}.png`) });

      // Back to the first branch: both turns as they were.
      await versions.getByRole('button', { name: 'Previous version' }).click();
      await expect(chat.personMessages()).toHaveCount(2);
      await expect(chat.assistantMessages().last()).toContainText('Holstentor');
      await expect(chat.personMessages().first().getByRole('group', { name: 'Version 1 of 2' })).toBeVisible();

      // Regenerate the last reply with another model, for this reply only.
      const conversationModel = fakeLlm.requests[0]?.body?.model;
      fakeLlm.script([{ text: 'Lübeck, again: the cathedral, the Buddenbrookhaus and a boat round the Trave.' }]);
      const reply = chat.assistantMessages().last();
      await reply.hover();
      await reply.getByRole('button', { name: 'Regenerate', exact: true }).click();
      const menu = app.getByRole('menu');
      await expect(menu.getByRole('menuitem').first()).toContainText('Again with');
      const other = menu.getByRole('menuitem').nth(1);
      await other.click();
      await chat.waitForIdle();
      const regenerated = chat.assistantMessages().last();
      await expect(regenerated).toContainText('Buddenbrookhaus');
      await expect(regenerated.getByRole('group', { name: 'Version 2 of 2' })).toHaveText('2 / 2');
      const asked = fakeLlm.requests.at(-1)?.body?.model;
      expect(asked).toBeTruthy();
      expect(asked).not.toBe(conversationModel);
      await regenerated.hover();
      await app.screenshot({ path: join(DOCS, `regenerate-other-model-${scheme}.png`) });

      // The conversation keeps its model: the next message goes to it.
      fakeLlm.script([{ text: 'Travemünde is twenty minutes by train.' }]);
      await chat.send('And the beach?');
      await chat.waitForIdle();
      expect(fakeLlm.requests.at(-1)?.body?.model).toBe(conversationModel);
    });
  });
}
