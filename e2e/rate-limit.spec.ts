import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a rate-limited reply (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('counts down to its next attempt with Retry now and Stop, and the reply arrives', async ({ app, fakeLlm }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      // The API answers 429 with retry-after: 30 twice, then the reply.
      fakeLlm.script([
        {
          text: 'Low tide at the pier is at 14:10 today; the next high tide is at 20:25.',
          busy: { times: 2, status: 429, retryAfter: 30 },
        },
      ]);
      await chat.send('When is low tide at the pier?');
      const wait = app.locator('.turn-wait');
      await expect(wait).toContainText(/Rate limited by the API — retrying in (30|29|28) s \(attempt 2 of 5\)/);
      await expect(wait).toContainText('This request would exceed the rate limit');
      // The countdown goes down on its own.
      await expect(wait).toContainText(/retrying in (2[0-8]) s/, { timeout: 5_000 });
      await expect(wait.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
      await app.screenshot({ path: join(DOCS, `rate-limit-countdown-${scheme}.png`) });

      await wait.getByRole('button', { name: 'Retry now', exact: true }).click();
      await expect(wait).toContainText('(attempt 3 of 5)');
      await wait.getByRole('button', { name: 'Retry now', exact: true }).click();
      await chat.waitForIdle();
      await expect(chat.assistantMessages().last()).toContainText('the next high tide is at 20:25');
      await expect(app.locator('.turn-wait')).toHaveCount(0);
      expect(fakeLlm.requests).toHaveLength(3);
      await app.screenshot({ path: join(DOCS, `rate-limit-answered-${scheme}.png`) });
    });
  });
}
