import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import {
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const serverDist = join(process.cwd(), 'node_modules', '@modelcontextprotocol', 'server', 'dist');

/**
 * A 2026-07-28 server (SDK v2, serveStdio) whose tool asks for a form and a
 * completion the modern way: an `input_required` result, then a retry
 * carrying the answers. Written to the temp dir; imports the SDK by file URL.
 */
const MODERN_ASKER = `
import { McpServer, inputRequired, inputResponse } from ${JSON.stringify(pathToFileURL(join(serverDist, 'index.mjs')).href)};
import { serveStdio } from ${JSON.stringify(pathToFileURL(join(serverDist, 'stdio.mjs')).href)};
serveStdio(() => {
  const server = new McpServer({ name: 'modern-asker', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('ask', { description: 'Ask the person and the model' }, async (ctx) => {
    const form = inputResponse(ctx.mcpReq.inputResponses, 'form');
    const poem = inputResponse(ctx.mcpReq.inputResponses, 'poem');
    if (form.kind === 'missing' || poem.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          form: inputRequired.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } }),
          poem: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'A short poem' } }], maxTokens: 40 }),
        },
      });
    }
    const text = poem.kind === 'sampling' && !Array.isArray(poem.result.content) && poem.result.content.type === 'text' ? poem.result.content.text : '?';
    return { content: [{ type: 'text', text: 'form: ' + JSON.stringify(form) + ' poem: ' + text }] };
  });
  return server;
});
`;

describe('host with a 2026-07-28 server: input_required rounds reach the same dialogs', () => {
  it('asks for the form and the completion inside the tool call, tied to it, and the retry carries the answers', async () => {
    world = await startChatWorld();
    const { harness, fake, dir } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const script = join(dir, 'modern-asker.mjs');
    await writeFile(script, MODERN_ASKER);
    await harness.call('servers.add', { name: 'modern', config: { command: process.execPath, args: [script] } });
    const ready = await harness.waitForEvent(
      'servers.changed',
      (state: ServerState) =>
        state.name === 'modern' && (state.status === 'ready' || state.status === 'error' || state.status === 'crashed'),
    );
    expect(ready).toMatchObject({ status: 'ready', era: 'modern' });

    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'modern__ask', input: {} }] },
      { text: 'poem from the model' },
      { text: 'All done.' },
    ]);
    const mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Ask me' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });

    const form = await pendingAfter(harness, mark, 'elicitation');
    expect(form).toMatchObject({
      server: 'modern',
      conversationId: id,
      toolUseId: consent.toolUseId,
      payload: { mode: 'form', message: 'Your name?' },
    });
    const review = await pendingAfter(harness, mark, 'sampling');
    expect(review).toMatchObject({ server: 'modern', conversationId: id, toolUseId: consent.toolUseId });
    await harness.call('pending.answer', { id: form.id, response: { action: 'accept', content: { name: 'Grace' } } });
    await harness.call('pending.answer', { id: review.id, response: { decision: 'approve' } });
    const answer = await pendingAfter(harness, mark, 'sampling-answer');
    await harness.call('pending.answer', { id: answer.id, response: { decision: 'approve' } });

    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const result = toolResultTexts(fake, 2);
    expect(result).toContain('"name":"Grace"');
    expect(result).toContain('poem: poem from the model');
  });
});
