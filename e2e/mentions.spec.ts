import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { chatTest, DOCS_DIR, everythingServerConfig, expect } from './support/berth';

/** Drops files on the composer as the browser would (a real DataTransfer with real File objects). */
async function dropFiles(page: Page, files: { name: string; type: string; bytes: number[] }[]): Promise<void> {
  await page.getByRole('group', { name: 'Your message' }).evaluate((target, list) => {
    const data = new DataTransfer();
    for (const file of list) data.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
  }, files);
}

const bytes = (text: string) => [...Buffer.from(text, 'utf8')];

chatTest.describe('attaching from the composer', () => {
  chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  chatTest(
    '@ lists the resources of ready servers, attaches the chosen one, and the model receives it; dropped files attach or say why not',
    async ({ app, fakeLlm }) => {
      chatTest.setTimeout(90_000);
      fakeLlm.script([{ text: 'The features document lists what the server can do.' }]);
      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();
      await chat.waitForServer('everything');

      await chat.input.pressSequentially('Summarize @');
      const menu = app.getByRole('listbox', { name: 'Resources' });
      await expect(menu.getByRole('option', { name: /architecture\.md/ })).toBeVisible();
      await expect(chat.input).toHaveAttribute('role', 'combobox');
      await app.mouse.move(0, 0);
      await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'mention-menu.png') });

      // Narrow it down, move with the keyboard, attach with Enter.
      await chat.input.pressSequentially('feat');
      const options = menu.getByRole('option');
      await expect(options.first()).toContainText('features.md');
      await expect(options.first()).toHaveAttribute('aria-selected', 'true');
      await chat.input.press('Enter');
      const chips = app
        .getByRole('group', { name: 'Your message' })
        .getByRole('list', { name: 'Attachments', exact: true })
        .getByRole('listitem');
      await expect(chips).toHaveCount(1);
      await expect(chips.first()).toContainText('features.md');
      await expect(chips.first()).toContainText('everything');
      await expect(chat.input).toHaveValue('Summarize ');
      await expect(menu).toBeHidden();

      // A dropped text file joins it; a binary one is refused with the reason.
      await dropFiles(app, [
        { name: 'notes.txt', type: 'text/plain', bytes: bytes('Remember the milk.') },
        { name: 'tool.bin', type: 'application/octet-stream', bytes: [0x7f, 0x45, 0x4c, 0x46, 0, 0, 1] },
      ]);
      await expect(chips).toHaveCount(2);
      await expect(chips.nth(1)).toContainText('notes.txt');
      await expect(app.getByRole('alert').filter({ hasText: 'This file was not attached' })).toContainText(
        'tool.bin is not a text file or an image',
      );
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'composer-attachments.png') });

      await chat.input.pressSequentially('please.');
      await chat.input.press('Enter');
      await expect(chat.input).toHaveValue('');
      await chat.waitForIdle();
      const sent = chat.messages.getByTestId('message-attachment');
      await expect(sent).toHaveCount(2);
      await expect(sent.first()).toContainText('features.md');

      // What the model received: the resource's URI and contents, and the dropped file's text.
      const request = JSON.stringify(fakeLlm.requests[0]);
      expect(request).toContain('demo://resource/static/document/features.md');
      expect(request).toContain("Attached from server 'everything'");
      expect(request).toContain('Remember the milk.');
      expect(request).toContain('Summarize please.');

      // Past the message limit the counter says so, Send waits, and the text can become an attachment.
      await chat.input.fill('a'.repeat(100_010));
      await expect(app.getByText('100,010 / 100,000 characters')).toBeVisible();
      const counter = app.getByRole('status').filter({ hasText: 'too many to send' });
      await expect(counter).toContainText('10 characters too many to send');
      // The refusal of the earlier drop went with the message it was about.
      await expect(app.getByText('This file was not attached')).toBeHidden();
      await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'composer-limit.png') });
      await counter.getByRole('button', { name: 'Attach the text as a file' }).click();
      await expect(chat.input).toHaveValue('');
      await expect(chips.first()).toContainText('Message text');
      await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();

      // A resource template: its variables are filled in, then the URI they make is read and attached.
      await chat.input.pressSequentially('@dynamic');
      await menu
        .getByRole('option', { name: /Dynamic Text Resource/ })
        .first()
        .click();
      const form = app.getByRole('form', { name: /Fill in Dynamic Text Resource/ });
      await form.getByLabel('resourceId').fill('3');
      await expect(form.getByTestId('template-uri')).toHaveText('demo://resource/dynamic/text/3');
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'mention-template.png') });
      await form.getByRole('button', { name: 'Attach' }).click();
      await expect(chips.nth(1)).toContainText('demo://resource/dynamic/text/3');
    },
  );
});
