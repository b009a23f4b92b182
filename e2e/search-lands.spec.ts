import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation } from '../shared/domain/chat';
import { writeConversations } from '../bench/generators/conversations';
import { ChatPage } from './pages/chat-page';
import { DOCS_DIR, expect, test } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');
const FOUND = 'The Color Line ferry leaves Kiel at 14:00 and reaches Oslo the next morning at 10:00.';

/** A long trip-planning conversation: the ferry is talked about early, far above where it ends. */
function longConversation(): Conversation {
  const updatedAt = Date.UTC(2026, 11, 7, 9);
  const messages: ChatMessage[] = Array.from({ length: 60 }, (_, n) => {
    const text =
      n === 5
        ? FOUND
        : n % 2 === 0
          ? `Day ${n / 2 + 1}: what should we see in the morning, and where can we eat nearby?`
          : `On day ${(n + 1) / 2} start at the old town square, walk the river path, and have lunch at the covered market.`;
    return n % 2 === 0
      ? { id: `m${n}`, role: 'user', createdAt: updatedAt, content: [{ type: 'text', text }] }
      : {
          id: `m${n}`,
          role: 'assistant',
          createdAt: updatedAt,
          content: [{ type: 'text', text }],
          model: 'claude-sonnet-5',
          stopReason: 'end_turn',
        };
  });
  return {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Trip to Norway',
    createdAt: updatedAt,
    updatedAt,
    model: 'claude-sonnet-5',
    messages,
    disabledServers: [],
    disabledTools: [],
  };
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a search hit lands on its message (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('opens the conversation scrolled to the message found, highlighted', async ({ app, berth }) => {
      await mkdir(DOCS, { recursive: true });
      await writeConversations(berth.configDir, [longConversation()]);
      await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await app.goto('about:blank');
      expect(await berth.restart()).toBe(0);
      await app.goto(berth.url);
      const chat = new ChatPage(app);
      await chat.show();

      await app.getByRole('searchbox', { name: 'Search conversations' }).fill('ferry oslo');
      const rows = chat.conversations.getByRole('listitem');
      await expect(rows.first().locator('mark')).toHaveText(['ferry', 'Oslo']);
      await rows.first().getByRole('button').first().click();

      const found = app.locator('[data-found]');
      await expect(found).toHaveCount(1);
      await expect(found).toContainText(FOUND);
      await expect(found).toBeFocused();
      await expect(found).toBeInViewport();
      await app.screenshot({ path: join(DOCS, `search-hit-lands-${scheme}.png`) });
      // The highlight fades; the place stays.
      await expect(found).toHaveCount(0, { timeout: 5_000 });
      // The message's row (the list's snippet holds the same words).
      await expect(app.locator('[data-message="m5"]')).toBeInViewport();
    });
  });
}
