import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerState } from '../../shared/domain/server';
import { binOf } from './supervisor-harness';
import {
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

// The real server-filesystem and server-memory answer with text and
// structuredContent that mirrors it (the file wrapped as {content}, the
// entities' JSON as {entities}). The model must get each once: a
// 47,890-character file used to reach it as 101,795 characters (file + escaped
// JSON), and once cut, as the file's head followed by the tail of the JSON.

/** 47,890 characters: 1,995 numbered lines of 23 characters, each with its line break, and a last line of 10. */
const FILE = `${Array.from({ length: 1_995 }, (_, index) => `row ${String(index + 1).padStart(5, '0')} of the file..\n`).join('')}last line.`;

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function addReady(harness: HostHarness, name: string, config: Record<string, unknown>): Promise<void> {
  await harness.call('servers.add', { name, config });
  await harness.waitForEvent(
    'servers.changed',
    (state: ServerState) => state.name === name && state.status === 'ready',
    30_000,
  );
}

/** One turn in which the model calls `tool` once, the person allows it, and the model answers. */
async function callOnce(harness: HostHarness, id: string, tool: string, input: Record<string, unknown>): Promise<void> {
  world?.fake.script([{ toolUses: [{ name: tool, input }] }, { text: 'done' }]);
  const mark = harness.events.length;
  await harness.call('chat.send', { id, text: `Call ${tool}` });
  await harness.call('pending.answer', {
    id: (await pendingAfter(harness, mark, 'tool-call')).id,
    response: { decision: 'allow-once' },
  });
  await turnEndAfter(harness, mark, id);
}

describe('host chat: text and structuredContent from real servers', () => {
  it('a 47,890-character file reaches the model once, whole or cut as one; entities’ JSON once', async () => {
    expect(FILE.length).toBe(47_890);
    world = await startChatWorld();
    const { harness, fake, dir } = world;
    const root = join(dir, 'files');
    await mkdir(root);
    const path = join(root, 'big.txt');
    await writeFile(path, FILE);
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addReady(harness, 'fs', {
      command: process.execPath,
      args: [binOf('@modelcontextprotocol/server-filesystem'), root],
    });
    await addReady(harness, 'memory', {
      command: process.execPath,
      args: [binOf('@modelcontextprotocol/server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    });
    const { id } = await newConversation(harness);

    // Berth's default limit (10,000 tokens): the file is cut as one result of 47,890 characters, ending with its own end.
    await callOnce(harness, id, 'fs__read_text_file', { path });
    const cut = toolResultTexts(fake, fake.requests.length - 1);
    expect(cut).toContain('it is 47,890 characters');
    expect(cut.startsWith('row 00001 of the file..\n')).toBe(true);
    expect(cut.endsWith('row 01995 of the file..\nlast line.')).toBe(true);
    expect(cut).not.toContain('{"content"');

    // Room for it all: exactly the file, once.
    await harness.call('servers.setResultLimit', { server: 'fs', limitTokens: 20_000 });
    await callOnce(harness, id, 'fs__read_text_file', { path });
    expect(toolResultTexts(fake, fake.requests.length - 1)).toBe(FILE);

    const entities = [{ name: 'Ann', entityType: 'person', observations: ['writes "tests"'] }];
    await callOnce(harness, id, 'memory__create_entities', { entities });
    expect(toolResultTexts(fake, fake.requests.length - 1)).toBe(JSON.stringify(entities, null, 2));
  }, 120_000);
});
