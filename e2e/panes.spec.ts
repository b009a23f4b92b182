import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { calm, chatTest as test, DOCS_DIR, expect } from './support/berth';

// The sidebar and the conversation list fold: by their buttons or Ctrl+B / Ctrl+Shift+B, kept by
// the host across reloads, and on their own in a small window so that the chat keeps the width.

/** The open conversation's share of the window's width. */
async function chatShare(app: Page): Promise<number> {
  return app.evaluate(() => {
    const pane = document.querySelector('.conversation-pane');
    return pane ? pane.getBoundingClientRect().width / window.innerWidth : 0;
  });
}

const sidebarButton = (app: Page, action: 'Show' | 'Hide') =>
  app.getByRole('button', { name: `${action} the sidebar (Ctrl+B)`, exact: true });
const listButton = (app: Page, action: 'Show' | 'Hide') =>
  app.getByRole('button', { name: `${action} the conversation list (Ctrl+Shift+B)`, exact: true });

test.describe('at 900×600', () => {
  test.use({ viewport: { width: 900, height: 600 } });

  test('the conversation list folds on its own and the chat keeps most of the width', async ({ app, fakeLlm }) => {
    fakeLlm.script([{ text: 'Berth 7 is free from noon; the harbour master has been told.' }]);
    const chat = new ChatPage(app);
    await chat.show();
    await expect(listButton(app, 'Show')).toBeVisible();
    await expect(app.getByRole('region', { name: 'Conversations' })).toBeHidden();
    await chat.newConversation();
    await chat.send('Is berth 7 free?');
    await expect(chat.assistantMessages().last()).toContainText('Berth 7 is free from noon');
    expect(await chatShare(app)).toBeGreaterThanOrEqual(0.7);

    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `panes-900x600-${scheme}.png`) });
    }
    await app.emulateMedia({ colorScheme: 'light' });

    // From the keyboard: the list comes back for this window, the sidebar folds to its icons.
    await chat.input.focus();
    await app.keyboard.press('Control+Shift+B');
    await expect(app.getByRole('region', { name: 'Conversations' })).toBeVisible();
    await expect(listButton(app, 'Hide')).toHaveAttribute('aria-expanded', 'true');
    await app.keyboard.press('Control+B');
    await expect(sidebarButton(app, 'Show')).toBeVisible();
    await expect(app.getByRole('button', { name: 'Add server', exact: true })).toBeHidden();
    // Folded, each view keeps its name.
    await app
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    await expect(app.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: scheme });
      await calm(app);
      await app.screenshot({ path: join(DOCS_DIR, 'screenshots', `panes-sidebar-folded-${scheme}.png`) });
    }
  });
});

test('a folded sidebar and list stay folded after a reload: the host keeps them', async ({ app }) => {
  const chat = new ChatPage(app);
  await chat.show();
  await sidebarButton(app, 'Hide').click();
  await listButton(app, 'Hide').click();
  await expect(app.getByRole('region', { name: 'Conversations' })).toBeHidden();
  await app.reload();
  await expect(sidebarButton(app, 'Show')).toBeVisible();
  await expect(listButton(app, 'Show')).toBeVisible();
  await expect(app.getByRole('region', { name: 'Conversations' })).toBeHidden();
  await sidebarButton(app, 'Show').click();
  await expect(app.getByRole('button', { name: 'Add server', exact: true })).toBeVisible();
});
