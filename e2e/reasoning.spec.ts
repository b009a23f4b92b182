import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

const THOUGHT =
  'The person asks which of two sorting approaches to use for a list of ten million records that is already almost sorted. ' +
  'Insertion sort is linear on nearly sorted input, but its worst case is quadratic. Timsort finds the runs that are already ' +
  'in order and merges them, so it keeps close to linear here while staying safe on bad input. I should recommend Timsort and say why.';
const ANSWER =
  'Use **Timsort**: it finds the runs that are already in order and merges them, so nearly sorted input costs close to one pass.';

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`reasoning (${scheme})`, () => {
    test.use({ colorScheme: scheme, initialConfig: { mcpServers: {} } });

    test('the effort control beside the model picker, a thinking block streaming open, then folded with its time', async ({
      app,
      fakeLlm,
    }) => {
      await mkdir(DOCS, { recursive: true });
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();

      // Reachable from the keyboard: Tab from the model picker, Enter opens the levels.
      const control = app.getByRole('button', { name: 'Thinking: Off' });
      // The model menu and the control load on demand: the button is enabled, and the control there, once they have.
      const picker = app.getByRole('button', { name: /^Model:/ });
      await expect(picker).toBeEnabled();
      await expect(control).toBeVisible();
      await picker.focus();
      await app.keyboard.press('Tab');
      await expect(control).toBeFocused();
      await app.keyboard.press('Enter');
      const menu = app.getByRole('menu');
      await expect(menu.getByRole('menuitemradio')).toHaveText([
        /Off.*Answers at once/,
        /Low.*A short think/,
        /Medium.*Thinks it through/,
        /High.*costs the most/,
      ]);
      await app.screenshot({ path: join(DOCS, `reasoning-control-${scheme}.png`) });
      await menu.getByRole('menuitemradio', { name: /^High/ }).click();
      await expect(app.getByRole('button', { name: 'Thinking: High' })).toBeVisible();

      fakeLlm.script([{ thinking: THOUGHT, text: ANSWER, delayMsPerChunk: 70 }]);
      await chat.send('Ten million nearly sorted records: which sort?');
      const live = app.getByRole('button', { name: /^Thinking… \d+ s/ });
      await expect(live).toHaveAttribute('aria-expanded', 'true');
      await expect(app.getByRole('region', { name: 'The model’s reasoning' })).toContainText('Insertion sort');
      await app.screenshot({ path: join(DOCS, `reasoning-streaming-${scheme}.png`) });

      await chat.waitForIdle();
      const reply = chat.assistantMessages().last();
      await expect(reply).toContainText('nearly sorted input costs close to one pass');
      const folded = reply.getByRole('button', { name: /^Thought for \d+ s$/ });
      await expect(folded).toHaveAttribute('aria-expanded', 'false');
      await expect(reply.getByRole('region', { name: 'The model’s reasoning' })).toHaveCount(0);
      await expect(reply.getByTestId('usage-line').locator('summary')).toContainText('of it thinking');
      await app.screenshot({ path: join(DOCS, `reasoning-folded-${scheme}.png`) });

      // The request asked for adaptive thinking at high effort; the reasoning opens again on demand.
      expect(fakeLlm.requests[0]?.body).toMatchObject({
        thinking: { type: 'adaptive' },
        output_config: { effort: 'high' },
      });
      await folded.focus();
      await app.keyboard.press('Enter');
      await expect(reply.getByRole('region', { name: 'The model’s reasoning' })).toContainText('recommend Timsort');
    });
  });
}
