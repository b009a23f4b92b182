import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { ServersPage } from './pages/servers-page';
import { chatTest as test, everythingServerConfig, expect } from './support/berth';

test.describe('server instructions and what a turn costs', () => {
  test.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  test("the Overview shows server-everything's instructions and their switch; the model gets them until it is switched off; each answer says what it used", async ({
    app,
    berth,
    fakeLlm,
  }) => {
    fakeLlm.script([
      {
        text: 'Hello from the model.',
        usage: { input_tokens: 1_500, output_tokens: 42, cache_read_input_tokens: 500 },
      },
      { text: 'Second answer.', usage: { input_tokens: 2_000, output_tokens: 8 } },
    ]);
    const servers = new ServersPage(app);
    await servers.expectStatus('everything', 'Ready');
    const detail = await servers.select('everything');
    await detail.showOverview();
    const section = app.getByRole('region', { name: 'Instructions from the server' });
    await expect(section).toContainText('Everything Server');
    const toggle = section.getByRole('switch', { name: 'Send its instructions to the model' });
    await expect(toggle).toBeChecked();
    await section.screenshot({ path: test.info().outputPath('overview-instructions.png') });

    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('hi');
    await chat.waitForIdle();
    const reply = chat.assistantMessages().last();
    await expect(reply).toContainText('Hello from the model.');
    const usage = reply.getByTestId('usage-line');
    await expect(usage.locator('summary')).toHaveText(
      /^2,000 in · 42 out · 500 from cache · cache saved ≈ 450 · tools ≈ [\d,]+ of the input$/,
    );
    await usage.locator('summary').press('Enter');
    await expect(usage).toContainText('Berth’s estimate');
    await app.screenshot({ path: test.info().outputPath('usage-line.png') });
    await expect(app.getByTestId('conversation-usage')).toHaveText(/^Total: 2,000 in · 42 out/);
    expect(String(fakeLlm.requests[0]?.body?.system)).toContain('<server-instructions server="everything">');

    // Off, from the keyboard: kept in settings.json, and the next request has no system prompt.
    await servers.show();
    await (await servers.select('everything')).showOverview();
    await section.getByRole('switch', { name: 'Send its instructions to the model' }).focus();
    await app.keyboard.press('Space');
    await expect(toggle).not.toBeChecked();
    // Written a moment after the switch answers: until then the file may not exist yet.
    const stored = async () =>
      JSON.parse(await readFile(join(berth.configDir, 'settings.json'), 'utf8').catch(() => '{}')) as {
        sendInstructions?: unknown;
      };
    await expect.poll(async () => (await stored()).sendInstructions).toEqual({ everything: false });
    await chat.show();
    await chat.send('again');
    await chat.waitForIdle();
    await expect(chat.assistantMessages().last()).toContainText('Second answer.');
    expect(fakeLlm.requests[1]?.body).not.toHaveProperty('system');
    await expect(app.getByTestId('conversation-usage')).toHaveText(/^Total: 4,000 in · 50 out/);
  });
});
