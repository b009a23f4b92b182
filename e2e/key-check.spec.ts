import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { SettingsPage } from './pages/settings-page';
import { chatTest as test, expect, DOCS_DIR } from './support/berth';

const DOCS = join(DOCS_DIR, 'screenshots');

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`a key checked when saved, and a chat error's way out (${scheme})`, () => {
    // No key in the environment: the key saved in Settings is the one chat uses.
    test.use({
      colorScheme: scheme,
      initialConfig: { mcpServers: {} },
      hostEnv: async ({ fakeLlm }, use) => use({ ANTHROPIC_BASE_URL: fakeLlm.url }),
    });

    test('a wrong key is refused where it is saved; the chat error opens Settings', async ({ app, fakeLlm }) => {
      await mkdir(DOCS, { recursive: true });
      const settings = new SettingsPage(app);
      await settings.show();
      const section = app.getByRole('region', { name: 'Anthropic API key' });
      await section.getByLabel('API key', { exact: true }).fill('sk-ant-wrong-0123456789');
      await section.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(section.getByRole('status')).toHaveText(
        'This key was refused by Anthropic (401: invalid x-api-key). Paste the right key and save again.',
      );
      // The cheapest call: one page of one model.
      expect(fakeLlm.modelRequests.at(-1)).toEqual({ path: '/v1/models', query: { limit: '1' } });
      await section.scrollIntoViewIfNeeded();
      await app.screenshot({ path: join(DOCS, `settings-key-refused-${scheme}.png`) });
      await app.setViewportSize({ width: 900, height: 600 });
      await section.scrollIntoViewIfNeeded();
      await app.screenshot({ path: join(DOCS, `settings-key-refused-900x600-${scheme}.png`) });
      await app.setViewportSize({ width: 1280, height: 800 });

      const chat = new ChatPage(app);
      await chat.show();
      await chat.newConversation();
      await chat.send('What is the tide table for tomorrow?');
      await chat.waitForIdle();
      const mark = app.locator('[data-failed-message]');
      await expect(mark).toContainText('invalid x-api-key');
      const open = mark.getByRole('button', { name: 'Open Settings', exact: true });
      await expect(open).toBeVisible();
      await app.screenshot({ path: join(DOCS, `chat-error-open-settings-${scheme}.png`) });
      await open.click();
      await expect(app.getByRole('region', { name: 'Anthropic API key' })).toBeVisible();
    });
  });
}
