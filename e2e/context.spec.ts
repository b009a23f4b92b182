import { join } from 'node:path';
import { FakeAnthropic } from './fake-llm/fake-anthropic';
import { ChatPage } from './pages/chat-page';
import { calm, chatTest, DOCS_DIR, expect, FAKE_API_KEY } from './support/berth';

// Context that never runs out, end to end: the fake Messages API holds the model to a small window
// (and refuses above it), Berth knows the window from settings.json; the meter in the conversation
// head fills, then Berth compacts the oldest turns and the chat shows what the model now remembers.

const MODEL = 'claude-sonnet-5';
const WINDOW = 8_000;
const SUMMARY =
  'The user described their garden: **tomatoes** in the south bed, basil beside them, and a leaking hose.';

const test = chatTest.extend<{ fakeLlm: FakeAnthropic }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  fakeLlm: async ({}, use) => {
    const fake = await FakeAnthropic.start({
      apiKey: FAKE_API_KEY,
      contextWindow: WINDOW,
      fallback: (request) =>
        typeof request.body?.system === 'string' && request.body.system.startsWith('You compact')
          ? { text: SUMMARY }
          : { text: `Noted. ${'The garden grows steadily through the season. '.repeat(18)}` },
    });
    try {
      await use(fake);
    } finally {
      await fake.close();
    }
  },
});

test.use({
  initialSettings: {
    models: [
      {
        id: MODEL,
        label: 'Claude Sonnet 5',
        tier: 'balanced',
        costRank: 2,
        speedRank: 2,
        intelligenceRank: 2,
        contextWindow: WINDOW,
      },
    ],
    defaultModel: MODEL,
  },
});

const message = (turn: number) =>
  `Turn ${turn}: ${'In my garden the tomatoes, the basil and the old hose each need a different kind of care. '.repeat(40)}`;

test('the meter fills, then the oldest turns are compacted and the chat shows what the model remembers', async ({
  app,
  fakeLlm,
}) => {
  test.setTimeout(90_000);
  const chat = new ChatPage(app);
  await chat.show();
  await chat.newConversation();
  const meter = app.getByTestId('context-meter');
  await chat.send(message(1));
  await chat.waitForIdle();
  await expect(meter).toHaveAttribute('title', /^Context: \d+% of 3,904 tokens/);
  await chat.send(message(2));
  await chat.waitForIdle();
  // Reloaded after each saved message: it grows with the conversation.
  await expect
    .poll(async () => Number((await meter.textContent())?.match(/(\d+)%/)?.[1]), { timeout: 5_000 })
    .toBeGreaterThan(40);
  await meter.click();
  const popover = app.locator('.context-popover');
  await expect(popover.getByRole('table', { name: 'What takes the room' })).toBeVisible();
  await expect(popover.getByRole('radio', { name: /^Compact The model summarises/ })).toBeChecked();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-meter.png') });
  await app.keyboard.press('Escape');

  let turn = 3;
  const cut = app.getByTestId('context-cut');
  while ((await cut.count()) === 0 && turn <= 8) {
    await chat.send(message(turn));
    await chat.waitForIdle();
    turn += 1;
  }
  // Folded: the block stands in for the messages it left out; they stay saved and show on demand.
  await expect(cut).toContainText(/\d+ earlier messages summarized/);
  const firstMessage = app.getByRole('list', { name: 'Messages' }).getByText(/^Turn 1: In my garden/);
  await expect(firstMessage).toHaveCount(0);
  // Nothing failed: each request fit, the summary went through the same provider.
  await expect(app.getByText('The reply failed')).toHaveCount(0);
  expect(fakeLlm.requests.some((request) => request.body?.system?.toString().startsWith('You compact'))).toBe(true);
  await cut.getByText('What the model remembers').click();
  await expect(cut.locator('strong', { hasText: 'tomatoes' })).toBeVisible();
  await cut.scrollIntoViewIfNeeded();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-compacted.png') });

  // From the keyboard: the toggle shows the originals above the block, which now sits under the last of them.
  const show = cut.getByRole('button', { name: /^Show \d+ messages$/ });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await show.focus();
  await app.keyboard.press('Enter');
  await expect(cut).toContainText(/Compacted: the model now remembers the \d+ messages above as a summary/);
  const hide = cut.getByRole('button', { name: /^Hide \d+ messages$/ });
  await expect(hide).toBeFocused();
  await expect(hide).toBeInViewport();
  await firstMessage.scrollIntoViewIfNeeded();
  await expect(firstMessage).toBeVisible();
  await hide.scrollIntoViewIfNeeded();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-compacted-shown.png') });

  await app.emulateMedia({ colorScheme: 'dark' });
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-compacted-shown-dark.png') });
  // calm() blurred it for the screenshot.
  await hide.focus();
  await app.keyboard.press('Space');
  await expect(firstMessage).toHaveCount(0);
  await expect(cut).toContainText(/\d+ earlier messages summarized/);
  await cut.scrollIntoViewIfNeeded();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-compacted-dark.png') });
  await meter.click();
  await expect(popover).toBeVisible();
  await calm(app);
  await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'context-meter-dark.png') });
});
