import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ResourcesPage } from './pages/resources-page';
import { chatTest, DOCS_DIR, everythingServerConfig, expect, toolNamed } from './support/berth';

chatTest.describe('resource browser', () => {
  chatTest.use({ initialConfig: { mcpServers: { everything: everythingServerConfig() } } });

  chatTest('lists, fills a template, subscribes, attaches to chat and shows live updates', async ({ app, fakeLlm }) => {
    chatTest.setTimeout(90_000);
    // The model turns on server-everything's simulated updates, which is what the subscription is for.
    fakeLlm.script([toolNamed('toggle-subscriber-updates'), { text: 'Updates are on.' }]);
    const resources = new ResourcesPage(app, 'everything');
    await resources.open();

    // A listed document previews as Markdown.
    await resources.resource(/architecture\.md/).click();
    await expect(resources.viewer.getByRole('heading').first()).toBeVisible();
    await expect(resources.viewer).toHaveAttribute('data-uri', 'demo://resource/static/document/architecture.md');

    // A template: fill its variable, read the URI it makes.
    await resources.template(/Dynamic Text Resource/).click();
    const form = resources.templateForm('Dynamic Text Resource');
    await expect(form.getByRole('button', { name: 'Read' })).toBeDisabled();
    await form.getByLabel('resourceId').fill('3');
    await expect(form.getByTestId('template-uri')).toHaveText('demo://resource/dynamic/text/3');
    await form.getByRole('button', { name: 'Read' }).click();
    await expect(resources.viewer).toHaveAttribute('data-uri', 'demo://resource/dynamic/text/3');
    await expect(resources.viewer.getByRole('region', { name: 'demo://resource/dynamic/text/3' })).toContainText(
      'Resource 3',
    );

    // Subscribe to a static document, then look at the whole tab.
    await resources.resource(/features\.md/).click();
    await resources.subscribe.click();
    await expect(resources.subscribe).toBeChecked();
    await app.mouse.move(0, 0);
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'resources.png') });

    // Attach it: the chat opens with the chip in the composer; the sent message keeps it.
    await resources.attachToChat();
    const chat = new ChatPage(app);
    await expect(chat.input).toBeVisible();
    const chip = app.getByRole('list', { name: 'Attachments', exact: true }).getByRole('listitem');
    await expect(chip).toContainText('features.md');
    await chat.send('Turn on resource updates, please');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await chat.waitForIdle();
    const sent = chat.messages.getByTestId('message-attachment');
    await expect(sent).toHaveCount(1);
    await expect(sent).toContainText('features.md');
    await expect(sent).toContainText('from everything');
    // Text attachments open in place.
    await sent.locator('summary').click();
    await expect(sent.locator('pre')).toBeVisible();
    // What the model received included the resource.
    expect(JSON.stringify(fakeLlm.requests[0])).toContain('demo://resource/static/document/features.md');

    // Back in the browser: the subscribed document shows the "updated" badge as updates arrive (every 5 s).
    await resources.open();
    await resources.resource(/features\.md/).click();
    await expect(resources.subscribe).toBeChecked();
    await expect(resources.updatedBadge).toBeVisible({ timeout: 15_000 });
    await resources.viewer.getByRole('button', { name: 'Re-read' }).click();
    // The document previews as Markdown again.
    await expect(resources.viewer.getByRole('heading').first()).toBeVisible();
  });
});
