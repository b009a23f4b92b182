import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { calm, chatTest as test, DOCS_DIR, everythingServerConfig, expect } from './support/berth';

// The fake Messages API bills its prompt cache by prefix as the real one does (e2e/fake-llm/anthropic-prompt-cache.ts):
// server-everything's tool list is long enough to be cached, so the second answer reads the first one's prompt.

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`prompt cache (${scheme})`, () => {
    test.use({ colorScheme: scheme });
    test('the second answer says what it read from the prompt cache and what that saved', async ({ app, fakeLlm }) => {
      fakeLlm.script([{ text: 'First answer.' }, { text: 'Second answer, mostly from the cache.' }]);
      const chat = new ChatPage(app);
      await chat.waitForServer('everything');
      await chat.show();
      await chat.newConversation();
      await chat.send('What can you do?');
      await chat.waitForIdle();
      const first = chat.assistantMessages().last().getByTestId('usage-line').locator('summary');
      // The first request writes the prompt to the cache: nothing read yet.
      await expect(first).toHaveText(/^[\d,]+ in · [\d,]+ out · [\d,]+ to cache · tools ≈ [\d,]+ of the input$/);

      await chat.send('And what else?');
      await chat.waitForIdle();
      const reply = chat.assistantMessages().last();
      await expect(reply).toContainText('Second answer, mostly from the cache.');
      const usage = reply.getByTestId('usage-line');
      await expect(usage.locator('summary')).toHaveText(
        /^[\d,]+ in · [\d,]+ out · [\d,]+ from cache · [\d,]+ to cache · cache saved ≈ [\d,]+ · tools ≈ [\d,]+ of the input$/,
      );
      // What was sent: the automatic mark and the last tool's breakpoint; what the fake read is the first prompt.
      expect(fakeLlm.requests[1]?.body).toMatchObject({ cache_control: { type: 'ephemeral' } });
      const read = Number(
        /([\d,]+) from cache/.exec((await usage.locator('summary').textContent()) ?? '')?.[1]?.replaceAll(',', ''),
      );
      expect(read).toBeGreaterThan(1_024);
      await expect(app.getByTestId('conversation-usage')).toContainText(/from cache · [\d,]+ to cache · cache saved ≈/);

      await usage.locator('summary').press('Enter');
      await expect(usage).toContainText('Read from the prompt cache');
      await expect(usage).toContainText(/Prompt cache saved≈ [\d,]+ input tokens’ worth/);
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `prompt-cache-${scheme}.png`) });
    });
  });
}
