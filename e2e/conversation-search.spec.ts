import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation } from '../shared/domain/chat';
import { writeConversations } from '../bench/generators/conversations';
import { ChatPage } from './pages/chat-page';
import { calm, DOCS_DIR, expect, test } from './support/berth';

function conversation(index: number, title: string, texts: string[]): Conversation {
  const updatedAt = Date.UTC(2026, 11, 7, 9) - index * 3_600_000;
  const messages: ChatMessage[] = texts.map((text, position) =>
    position % 2 === 0
      ? { id: `m${position}`, role: 'user', createdAt: updatedAt, content: [{ type: 'text', text }] }
      : {
          id: `m${position}`,
          role: 'assistant',
          createdAt: updatedAt,
          content: [{ type: 'text', text }],
          model: 'claude-sonnet-5',
          stopReason: 'end_turn',
        },
  );
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    title,
    createdAt: updatedAt,
    updatedAt,
    model: 'claude-sonnet-5',
    messages,
    disabledServers: [],
    disabledTools: [],
  };
}

const CONVERSATIONS = [
  conversation(0, 'Weekend plans', ['Any ideas for Saturday?', 'A walk along the harbour, then lunch at the market.']),
  conversation(1, 'Trip to Norway', [
    'When does the night ferry from Kiel to Oslo leave, and how long is the crossing?',
    'The Color Line ferry leaves Kiel at 14:00 and reaches Oslo the next morning at 10:00.',
  ]),
  conversation(2, 'Quarterly report', ['Summarize the numbers', 'Revenue grew 4% while costs stayed flat.']),
  conversation(3, '数据库迁移', ['我们需要把向量数据库迁移到新的服务器。', '好的，先备份数据库，再迁移。']),
  conversation(4, 'Packing list', [
    'What should I pack for the ferry crossing?',
    'A warm jacket and motion-sickness tablets.',
  ]),
];

test.describe('search and pins', () => {
  test('search finds words in messages (English and Chinese) with the match marked; a pinned conversation stays first after a restart', async ({
    app,
    berth,
  }) => {
    await writeConversations(berth.configDir, CONVERSATIONS);
    // The fixture opened the page: let it finish loading (its catalog is a lazy chunk) and leave before the host
    // goes down, or the page reports the chunk it could not fetch.
    await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await app.goto('about:blank');
    expect(await berth.restart()).toBe(0);
    await app.goto(berth.url);
    const chat = new ChatPage(app);
    await chat.show();
    const rows = chat.conversations.getByRole('listitem');
    await expect(rows.first()).toContainText('Weekend plans');

    // Pin with the keyboard: Alt+P on the focused row.
    await chat.conversation('Quarterly report').getByRole('button').first().focus();
    await app.keyboard.press('Alt+KeyP');
    await expect(rows.first()).toContainText('Quarterly report');
    await expect(
      chat.conversation('Quarterly report').getByRole('button', { name: 'Unpin “Quarterly report”' }),
    ).toHaveAttribute('aria-pressed', 'true');

    const search = app.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('ferry kiel');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Trip to Norway');
    await expect(rows.first().locator('mark')).toHaveText(['ferry', 'Kiel']);

    await search.fill('ferry');
    await expect(rows).toHaveCount(2);
    await expect(rows.first().locator('mark').first()).toHaveText('ferry');
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `conversation-search-hits-${scheme}.png`) });
    }
    await app.emulateMedia({ colorScheme: 'light' });

    await search.fill('数据库');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().locator('mark').first()).toHaveText('数据库');

    await search.fill('submarine');
    await expect(app.getByRole('status').filter({ hasText: 'No conversation holds “submarine”' })).toBeVisible();
    await app.getByRole('button', { name: 'Clear search' }).click();

    // The pin is saved with the conversation: first again after a restart (the page leaves first, as above).
    await app.goto('about:blank');
    expect(await berth.restart()).toBe(0);
    await app.goto(berth.url);
    await chat.show();
    await expect(rows.first()).toContainText('Quarterly report');
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `conversation-pinned-${scheme}.png`) });
    }
    await app.emulateMedia({ colorScheme: 'light' });
  });
});
