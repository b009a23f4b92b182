import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lastToolResultText } from './fake-llm/turns';
import { ChatPage } from './pages/chat-page';
import { PendingDialog } from './pages/pending-dialog';
import { ServersPage } from './pages/servers-page';
import { report, scan, type Finding } from './support/axe-scan';
import { calm, chatTest, DOCS_DIR, expect, toolNamed } from './support/berth';

// A 5 MB tool result in a real chat: the model (the fake Anthropic API) gets
// its head and tail with Berth's note and reads a further range through
// read_tool_result; the person sees the whole result, shortened in the card,
// with what the model saw and a viewer for all of it.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'servers', 'big-results.mjs');
/** The fixture's lines: `line NNNNNNN ` + 36 dots, 50 bytes with the newline. */
const line = (n: number): string => `line ${String(n).padStart(7, '0')} ${'.'.repeat(36)}`;
const LINES = Math.floor((5 * 1024 * 1024) / 50);

chatTest.describe('a big tool result', () => {
  chatTest.use({ initialConfig: { mcpServers: { logs: { command: process.execPath, args: [FIXTURE] } } } });

  chatTest('is cut for the model, whole in the card, and the model reads more of it', async ({ app, fakeLlm }) => {
    fakeLlm.script([
      toolNamed('big_log', {}),
      (request) => {
        const id = /result_id "([^"]+)"/.exec(lastToolResultText(request.body))?.[1];
        if (id === undefined) throw new Error('the cut result names no result_id');
        return {
          text: 'The start and the end are there; let me read the middle.',
          toolUses: [{ name: 'read_tool_result', input: { result_id: id, start_line: 50_000, end_line: 50_001 } }],
        };
      },
      { text: 'Line 50,000 of the log is ordinary: nothing stands out in the middle either.' },
    ]);
    const chat = new ChatPage(app);
    await chat.waitForServer('logs');
    await chat.show();
    await chat.newConversation();
    await chat.send('Is there anything odd in the log?');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await dialog.expectClosed();
    await chat.waitForIdle(60_000);

    // The model: head and tail within the default limit, then exactly the two lines it asked for.
    const sent = JSON.stringify(fakeLlm.requests[1]?.body?.messages.at(-1)?.content);
    expect(sent.length).toBeLessThan(45_000);
    expect(sent).toContain(line(1));
    expect(sent).toContain(line(LINES));
    expect(sent).toContain('[Berth cut this tool result from server \\"logs\\"');
    expect(sent).not.toContain(line(50_000));
    expect(lastToolResultText(fakeLlm.requests[2]?.body)).toContain(`${line(50_000)}\n${line(50_001)}`);

    // The card: what the model saw, the start of the text, and the whole in the viewer.
    const card = chat.toolCard('big_log');
    const note = card.getByRole('note', { name: 'Cut for the model', exact: true });
    await expect(note).toContainText(/The model saw [\d,]+ of 5,242,849 characters/);
    await expect(card.getByText('Showing the first 20,000 of 5,242,849 characters.', { exact: true })).toBeVisible();
    // The reading call: Berth's own compact card, no approval asked.
    await expect(app.getByRole('article', { name: 'Berth: read_tool_result', exact: true })).toContainText(
      'read offsets 2499950–2500050 of the result of logs › big_log',
    );

    await note.scrollIntoViewIfNeeded();
    await calm(app);
    await mkdir(join(DOCS_DIR, 'screenshots'), { recursive: true });
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'result-capped.png') });

    const findings: Finding[] = [];
    await scan(app, 'Chat with a capped result', findings);
    await note.getByRole('button', { name: 'Open the whole result', exact: true }).click();
    const viewer = app.getByRole('dialog', { name: 'Whole result of big_log', exact: true });
    await expect(viewer).toContainText('5,242,849 characters, 104,857 lines');
    await expect(viewer.getByText(line(1), { exact: true })).toBeVisible();
    // Only the rows in view are in the page; the end is a scroll away.
    expect(await viewer.locator('.result-viewer-row').count()).toBeLessThan(200);
    await viewer.getByRole('region', { name: 'Whole result', exact: true }).evaluate((element) => {
      element.scrollTop = element.scrollHeight;
    });
    await expect(viewer.getByText(line(LINES), { exact: true })).toBeVisible();
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'result-viewer.png') });
    await scan(app, 'Whole-result viewer', findings);
    expect(findings, report(findings)).toEqual([]);
    await app.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
  });

  chatTest('follows the limit the person sets in the server’s Overview', async ({ app, fakeLlm }) => {
    const servers = new ServersPage(app);
    await servers.show();
    const detail = await servers.select('logs');
    await detail.showOverview();
    await expect(detail.resultLimit).toContainText(
      'The model gets at most 10,000 tokens of one tool result, or a tenth of a smaller model’s context (Berth’s default)',
    );
    const form = await detail.setResultLimit('100');
    await expect(form.getByText('Enter a whole number of tokens from 500 to 500,000.', { exact: true })).toBeVisible();
    await detail.setResultLimit('1,000');
    await expect(form).toHaveCount(0);
    await expect(detail.resultLimit).toContainText('The model gets at most 1,000 tokens of one tool result');
    await detail.resultLimit.scrollIntoViewIfNeeded();
    await calm(app);
    await app.screenshot({ path: join(DOCS_DIR, 'screenshots', 'result-limit.png') });

    fakeLlm.script([toolNamed('big_log', { megabytes: 0.5 }), { text: 'Seen.' }]);
    const chat = new ChatPage(app);
    await chat.show();
    await chat.newConversation();
    await chat.send('Look at a smaller log');
    const dialog = new PendingDialog(app);
    await dialog.expectKind('tool-call');
    await dialog.allow('Allow once');
    await chat.waitForIdle(60_000);
    const sent = lastToolResultText(fakeLlm.requests[1]?.body);
    expect(sent).toContain('above the limit of 1,000 tokens');
    expect(sent.length).toBeLessThanOrEqual(4_000);
    await expect(chat.toolCard('big_log').getByRole('note', { name: 'Cut for the model', exact: true })).toContainText(
      'over the limit of 1,000 tokens',
    );
  });
});
