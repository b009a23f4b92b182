import { generateConversations, generatedConversationTitle } from '../bench/generators/conversations';
import { ChatPage } from './pages/chat-page';
import { expect, test } from './support/berth';

const COUNT = 5_000;

test.describe('conversation list at a heavy user’s scale', () => {
  test('5,000 conversations: the list opens with a bounded number of rows, search finds one, the keyboard reaches the last', async ({
    app,
    berth,
  }) => {
    // Written behind Berth's back, then a restart: the host finds them, builds its index, and serves the list.
    const generated = await generateConversations(berth.configDir, { count: COUNT });
    expect(await berth.restart()).toBe(0);
    await app.goto(berth.url);

    const chat = new ChatPage(app);
    await chat.show();
    const rows = chat.conversations.getByRole('listitem');
    await expect(rows.first()).toContainText(generated.titles[0]!);
    await expect(rows.first()).toHaveAttribute('aria-setsize', String(COUNT));
    expect(await rows.count()).toBeLessThan(60);

    const search = app.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill(generatedConversationTitle(4321));
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(generatedConversationTitle(4321));
    await search.fill('no such title anywhere');
    await expect(app.getByRole('status').filter({ hasText: 'No conversation holds' })).toBeVisible();
    await app.getByRole('button', { name: 'Clear search' }).click();
    await expect(rows.first()).toContainText(generated.titles[0]!);

    // The row's first button opens the conversation (the others rename and delete it).
    await rows.first().getByRole('button').first().focus();
    await app.keyboard.press('End');
    const last = generated.titles[COUNT - 1]!;
    await expect(app.locator(':focus')).toContainText(last);
    await app.keyboard.press('Enter');
    await expect(app.getByRole('heading', { name: last })).toBeVisible();
  });
});
