import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import { calm, chatTest as test, DOCS_DIR, expect, toolNamed, type FakeAnthropic } from './support/berth';

/** Offers the skills report-writing and cross-notes; its change_skill tool gives report-writing a new version. */
const SKILLS_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'servers', 'skills-server.mjs');

test.use({
  initialConfig: {
    mcpServers: {
      docs: { command: process.execPath, args: [SKILLS_SERVER] },
      mirror: { command: process.execPath, args: [SKILLS_SERVER] },
    },
  },
});

/** The tool results the model received in request `index` (0-based), as JSON text. */
function toolResultsSent(fake: FakeAnthropic, index: number): string {
  return JSON.stringify(fake.requests[index]?.body?.messages.at(-1)?.content ?? '');
}

const loadSkill = (skill: string) => ({ toolUses: [{ name: 'load_skill', input: { skill } }] });

async function startChat(app: ChatPage['page']): Promise<ChatPage> {
  const chat = new ChatPage(app);
  await chat.waitForServer('docs');
  await chat.waitForServer('mirror');
  await chat.show();
  await chat.newConversation();
  return chat;
}

test.describe('MCP skills', () => {
  test('the model loads a skill after the person allows it; once the server changes it, loading it asks again', async ({
    app,
    fakeLlm,
  }) => {
    fakeLlm.script([
      loadSkill('docs/report-writing'),
      { text: 'I have the report skill.' },
      toolNamed('change_skill'),
      loadSkill('docs/report-writing'),
      { text: 'The skill changed: it now asks for a haiku.' },
    ]);
    const chat = await startChat(app);
    await chat.send('Write a weather report for Oslo');

    const dialog = new PendingDialog(app);
    await dialog.expectKind('skill');
    await expect(app.getByRole('dialog', { name: 'Load skill docs/report-writing?', exact: true })).toBeVisible();
    await expect(dialog.root).toContainText('The model wants to read this skill from docs');
    await expect(dialog.root).toContainText('mirror also offers a skill of this name');
    await expect(dialog.root.getByRole('list', { name: 'Files' })).toContainText('references/STYLE.md');
    // allowed-tools, as the server wrote it: information, not a grant.
    await expect(dialog.root.getByRole('note', { name: 'Tools this skill expects', exact: true })).toContainText(
      'This skill expects to use: get_forecast, Bash(curl:*)',
    );
    await dialog.button('Load skill').click();
    await dialog.expectClosed();
    await expect(chat.assistantMessages().last()).toContainText('I have the report skill.');
    await expect(app.getByRole('article', { name: 'Berth: load_skill', includeHidden: true }).first()).toContainText(
      'loaded skill docs/report-writing from docs',
    );
    expect(toolResultsSent(fakeLlm, 1)).toContain('Skill docs/report-writing from server docs');
    expect(toolResultsSent(fakeLlm, 1)).toContain('three short lines');

    // The server changes the skill (the model calls its tool, with the person's consent), and the model asks for it again.
    await chat.waitForIdle();
    await chat.send('The skill was updated, use it again');
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectKind('skill');
    await expect(
      app.getByRole('dialog', { name: 'Load the changed skill docs/report-writing?', exact: true }),
    ).toBeVisible();
    await expect(dialog.root.getByRole('note').first()).toContainText('changed on the server since you allowed it');
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'skills.png') });
    await dialog.button('Load changed skill').click();
    await dialog.expectClosed();
    await expect(chat.assistantMessages().last()).toContainText('it now asks for a haiku');
    expect(toolResultsSent(fakeLlm, 4)).toContain('as a haiku (version 2)');

    // The server's Skills tab: each skill by its qualified name, its state and files; the same name on mirror said plainly.
    const servers = new ServersPage(app);
    await servers.show();
    const detail = await servers.select('docs');
    await detail.root.getByRole('tab', { name: 'Skills', exact: true }).click();
    const row = detail.root.getByRole('listitem', { name: 'docs/report-writing', exact: true });
    await expect(row).toContainText('Approved');
    await expect(row).toContainText('mirror also offers a skill named “report-writing”');
    await expect(detail.root.getByRole('listitem', { name: 'docs/cross-notes', exact: true })).toContainText(
      'Not yet approved',
    );
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'skills-server.png') });
  });

  test('the person attaches a skill from the composer; a refused answer stays in the box with the reason', async ({
    app,
  }) => {
    const chat = await startChat(app);
    await app.getByRole('button', { name: 'Skills', exact: true }).click();
    const panel = app.getByRole('group', { name: 'Skills', exact: true });
    await expect(panel.getByRole('button', { name: 'Attach skill mirror/report-writing', exact: true })).toBeVisible();
    await panel.getByRole('button', { name: 'Attach skill docs/cross-notes', exact: true }).click();
    const dialog = new PendingDialog(app);
    await dialog.expectKind('skill');
    await expect(dialog.root).toContainText('You picked this skill from docs');
    await dialog.button('Don’t load').click();
    await expect(panel.getByRole('alert')).toContainText('the person declined to load skill “docs/cross-notes”');

    await panel.getByRole('button', { name: 'Attach skill mirror/report-writing', exact: true }).click();
    await dialog.expectKind('skill');
    await dialog.button('Load skill').click();
    await expect(app.getByRole('list', { name: 'Attachments' })).toContainText('Skill mirror/report-writing');
    await expect(panel).toBeHidden();
    await expect(chat.input).toBeVisible();
  });
});
