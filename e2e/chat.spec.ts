import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { chatTest as test, everythingServerConfig, expect, toolNamed } from './support/berth';

test.describe('chat', () => {
  test('streams a reply, stops it, renders Markdown, and keeps the conversation across a restart', async ({
    app,
    berth,
    fakeLlm,
  }) => {
    fakeLlm.script([
      // Held open after the text: the reply stays "being written" until the person presses Stop.
      { text: 'Thinking about ferries and harbours', holdOpen: true },
      {
        text: 'Here is a table:\n\n| Port | Berths |\n| --- | --- |\n| Hamburg | 320 |\n| Kiel | 45 |\n\n```ts\nconst berth: number = 7;\n```\n\nThat is **all**.',
      },
    ]);
    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('Tell me about harbours');
    await expect(chat.streaming).toContainText('Thinking about ferries and harbours');
    await chat.stop();
    // What streamed is kept, marked stopped by you (issue 34: nothing the model wrote is lost).
    await expect(chat.messages.getByText('Stopped by you')).toBeVisible();
    await expect(chat.streaming).toBeHidden();
    await expect(chat.messages).toContainText('Thinking about ferries');

    await chat.send('And a table please');
    const reply = chat.assistantMessages().last();
    await expect(reply.getByRole('table')).toContainText('Hamburg');
    await expect(reply.locator('.md-code .hljs-keyword').first()).toHaveText('const');
    await expect(reply.getByRole('strong')).toHaveText('all');
    await chat.waitForIdle();
    expect(
      fakeLlm.requests.at(-1)?.headers['x-api-key'] ?? fakeLlm.requests.at(-1)?.headers.authorization,
    ).toBeTruthy();

    const firstRun = await berth.restart();
    expect(firstRun, `Berth should exit cleanly on SIGTERM.\nstderr:\n${berth.stderr()}`).toBe(0);
    await app.goto(berth.url);
    await chat.show();
    await expect(chat.conversations.getByRole('listitem')).toHaveCount(1);
    // The item's first button opens it (the others rename and delete).
    await chat.conversations.getByRole('listitem').first().getByRole('button').first().click();
    await expect(chat.messages).toContainText('And a table please');
    await expect(chat.assistantMessages().last().getByRole('table')).toContainText('Kiel');
  });

  test('renames in place, deletes with Undo, and edits and resends the last message', async ({ app, fakeLlm }) => {
    fakeLlm.script([{ text: 'First answer' }, { text: 'Answer to the edited question' }]);
    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('Original question');
    await expect(chat.assistantMessages().last()).toContainText('First answer');
    await chat.waitForIdle();

    await chat.personMessages().last().getByRole('button', { name: 'Edit' }).click();
    const editor = app.getByRole('textbox', { name: 'Edit your message' });
    await editor.fill('Edited question');
    await editor.press('Enter');
    await expect(chat.assistantMessages().last()).toContainText('Answer to the edited question');
    await expect(chat.messages).not.toContainText('Original question');
    await expect(chat.messages).not.toContainText('First answer');
    expect(JSON.stringify(fakeLlm.requests.at(-1)?.body?.messages)).toContain('Edited question');

    const item = chat.conversations.getByRole('listitem').first();
    await item.hover();
    await item.getByRole('button', { name: /^Rename/ }).click();
    const title = app.getByRole('textbox', { name: 'Conversation title' });
    await title.fill('Harbour questions');
    await title.press('Enter');
    await expect(chat.conversation('Harbour questions')).toBeVisible();

    await chat
      .conversation('Harbour questions')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await expect(chat.conversation('Harbour questions')).toHaveCount(0);
    await app.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(chat.conversation('Harbour questions')).toBeVisible();
    await expect(chat.messages).toContainText('Answer to the edited question');
  });

  test('follows a long reply to its end, and each conversation reopens where the person left it', async ({
    app,
    fakeLlm,
  }) => {
    const longReply = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} about berths and tides.`).join('\n\n');
    fakeLlm.script([{ text: longReply, delayMsPerChunk: 5 }, { text: 'A short answer' }]);
    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('Tell me everything about tides');
    await chat.waitForIdle();
    // The view followed the reply: its last paragraph is on screen.
    await expect(chat.messages.getByText('Paragraph 120 about berths and tides.')).toBeInViewport();
    // The element that scrolls is the one holding the Messages list.
    const scroller = chat.messages.locator('..');
    const distanceFromBottom = () => scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    // Polled: what renders after the last paragraph (the reply's footer) may grow the list a moment before the view follows.
    await expect.poll(distanceFromBottom).toBeLessThan(80);

    // The person scrolls up to read, goes to another conversation, and comes back.
    await scroller.hover();
    await app.mouse.wheel(0, -(await scroller.evaluate((el) => el.scrollTop)) + 600);
    await expect.poll(() => scroller.evaluate((el) => Math.abs(el.scrollTop - 600) < 50)).toBe(true);
    await expect(chat.messages.getByText('Paragraph 120 about berths and tides.')).not.toBeInViewport();
    // Where the scroll came to rest (a wheel scroll may still be gliding when it first passes near 600): five frames unmoved.
    const readingAt = await scroller.evaluate(
      (el) =>
        new Promise<number>((rest) => {
          let last = el.scrollTop;
          let still = 0;
          const frame = (): void => {
            if (el.scrollTop !== last) [last, still] = [el.scrollTop, 0];
            else if (++still >= 5) return rest(last);
            requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        }),
    );
    await chat.newConversation();
    await chat.send('Something short');
    await expect(chat.assistantMessages().last()).toContainText('A short answer');
    await chat.conversation('Tell me everything about tides').click();
    await expect(chat.messages).toContainText('Tell me everything about tides');
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(readingAt);
    await expect(chat.messages.getByText('Paragraph 120 about berths and tides.')).not.toBeInViewport();
  });

  test.describe('with server-everything', () => {
    test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

    test('a long-running tool shows progress, and Stop cancels it', async ({ app, fakeLlm }) => {
      fakeLlm.script([
        toolNamed('trigger-long-running-operation', { duration: 60, steps: 60 }),
        { text: 'never reached' },
      ]);
      const chat = new ChatPage(app);
      await chat.waitForServer('everything');
      await chat.show();
      await chat.newConversation();
      await chat.send('Run the long operation');
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      await dialog.allow('Allow once');
      const card = chat.toolCard('trigger-long-running-operation');
      const bar = card.getByRole('progressbar');
      await expect(bar).toBeVisible();
      await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/, { timeout: 20_000 });
      await expect(card).toContainText(/\d+ of 60/);
      await card.getByRole('button', { name: 'Stop' }).click();
      await expect(card.getByText('Stopped by you')).toBeVisible();
      await expect(card).toContainText('You stopped this call before it finished.');
      await expect(card).not.toContainText('The tool reported an error');
      await expect(card.getByRole('progressbar')).toBeHidden();
      await expect(app.getByText('You stopped this reply.')).toBeVisible();
      // Stopped means no further model call with the result.
      expect(fakeLlm.requests).toHaveLength(1);
    });
  });
});
