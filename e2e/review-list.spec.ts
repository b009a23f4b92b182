import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { SettingsPage } from './pages/settings-page';
import { chatTest as test, everythingServerConfig, expect, type FakeTurnSource } from './support/berth';

test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

/** One model turn with three parallel calls of server-everything's echo. */
const threeEchoes: FakeTurnSource = (request) => {
  const name = (request.body?.tools ?? []).map((t) => String(t.name)).find((n) => n.endsWith('__echo'));
  if (name === undefined) throw new Error('the model was not offered echo');
  return { toolUses: ['first', 'second', 'third'].map((message) => ({ name, input: { message } })) };
};

/** Where screenshots of this spec go when BERTH_SHOTS is set (to look at the UI), else nowhere. */
const SHOTS = process.env.BERTH_SHOTS;

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`review list (${scheme})`, () => {
    test.use({ colorScheme: scheme });
    test('parallel calls → the tray review list → "Allow all 3" → all three results shown', async ({
      app,
      fakeLlm,
    }) => {
      fakeLlm.script([threeEchoes, { text: 'All three: {{lastToolResult}}' }]);
      const chat = new ChatPage(app);
      await chat.waitForServer('everything');
      await chat.show();
      await chat.newConversation();
      await chat.send('Echo three things at once');

      // The first call's dialog says the other two wait in the same turn.
      const dialog = new PendingDialog(app);
      await dialog.expectKind('tool-call');
      const turn = dialog.root.getByTestId('turn-calls');
      await expect(turn).toContainText('2 other calls of this turn are waiting');
      if (SHOTS) await app.screenshot({ path: join(SHOTS, `consent-turn-${scheme}.png`) });
      await turn.getByRole('button', { name: 'Review all 3 together' }).click();

      const review = app.getByRole('region', { name: 'Tool calls to review' });
      await expect(review).toBeVisible();
      await expect(review.getByTestId('review-args')).toHaveText([
        '{"message":"first"}',
        '{"message":"second"}',
        '{"message":"third"}',
      ]);
      if (SHOTS) {
        await mkdir(SHOTS, { recursive: true });
        await app.screenshot({ path: join(SHOTS, `review-list-${scheme}.png`) });
      }
      await review.getByRole('button', { name: 'Allow all 3' }).click();
      await expect(review).toBeHidden();

      for (const message of ['first', 'second', 'third']) {
        await expect(chat.page.getByText(`Echo: ${message}`).first()).toBeVisible();
      }
      await expect(chat.assistantMessages().last()).toContainText('All three');
      await expect(app.getByTestId('pending-tray')).toHaveAttribute('aria-label', 'Requests: nothing waiting');
    });
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`rules (${scheme})`, () => {
    test.use({ colorScheme: scheme });
    test('a rule written in Settings lets the parallel calls it covers run without asking, until revoked', async ({
      app,
      fakeLlm,
    }) => {
      const chat = new ChatPage(app);
      await chat.waitForServer('everything');
      const settings = new SettingsPage(app);
      await settings.show();
      const form = app.getByTestId('rule-form');
      await form.getByRole('textbox', { name: 'Tool names that match' }).fill('ech?');
      await expect(form.getByTestId('rule-preview')).toContainText('Covers this tool, as listed now: echo.');
      await form.getByRole('button', { name: 'Add rule' }).click();
      await expect(settings.permissionRow('tools whose names match ech?')).toContainText('echo');
      await form.getByRole('radio', { name: 'Marked read-only' }).click();
      if (SHOTS)
        await app
          .getByRole('region', { name: 'Tool permissions' })
          .screenshot({ path: join(SHOTS, `rule-form-${scheme}.png`) });
      await form.getByRole('radio', { name: 'Names that match' }).click();

      fakeLlm.script([threeEchoes, { text: 'done' }]);
      await chat.show();
      await chat.newConversation();
      await chat.send('Echo three things at once');
      for (const message of ['first', 'second', 'third']) {
        await expect(chat.page.getByText(`Echo: ${message}`).first()).toBeVisible();
      }
      await expect(new PendingDialog(app).root).toBeHidden();

      await settings.show();
      await expect(settings.audit).toContainText('allowed by your rule');
      await settings.revoke('tools whose names match ech?');
      await expect(settings.permissions).toBeHidden();
    });
  });
}
