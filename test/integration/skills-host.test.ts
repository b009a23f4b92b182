import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkillCatalog } from '../../shared/domain/skills';
import type { ServerState } from '../../shared/domain/server';
import type { ChatAttachment } from '../../shared/domain/chat';
import type { LogEntry } from '../../shared/domain/log';
import {
  eventAfter,
  newConversation,
  pendingAfter,
  startChatWorld,
  TEST_API_KEY,
  toolResultTexts,
  turnEndAfter,
} from './host-chat-support';
import type { ChatWorld } from './host-chat-support';
import type { HostHarness } from './host-harness';

const fixture = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'skills-server.mjs');

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function addSkillsServer(
  harness: HostHarness,
  name: string,
  env: Record<string, string> = {},
): Promise<ServerState> {
  await harness.call('servers.add', { name, config: { command: process.execPath, args: [fixture], env } });
  return harness.waitForEvent('servers.changed', (state) => state.name === name && state.status === 'ready');
}

const loadToolOf = (world: ChatWorld, request: number) =>
  world.fake.requests[request]?.body?.tools?.find((tool) => (tool as { name?: string }).name === 'load_skill') as
    { description: string } | undefined;

describe('skills end to end through the host (skills-server fixture)', () => {
  it('lists skills per server, keeps same names apart, loads one after approval, and asks again once the server changed it', async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    const docs = await addSkillsServer(harness, 'docs');
    await addSkillsServer(harness, 'mirror');
    const catalog = await harness.waitForEvent(
      'skills.changed',
      (c) => c.skills.filter((s) => s.name === 'report-writing').length === 2,
    );
    const report = catalog.skills.find((skill) => skill.qualifiedName === 'docs/report-writing');
    expect(report).toMatchObject({
      server: 'docs',
      state: 'available',
      sameNameOn: ['mirror'],
      files: [{ path: 'SKILL.md' }, { path: 'references/STYLE.md', size: 49 }],
    });
    expect(catalog.skills.map((skill) => skill.qualifiedName).sort()).toEqual([
      'docs/cross-notes',
      'docs/report-writing',
      'mirror/cross-notes',
      'mirror/report-writing',
    ]);
    // On the wire: the extension declared in initialize, the skills listed, and no skill file read ahead of need.
    const trace = (
      await harness.call<{ entries: LogEntry[] }>('logs.query', { server: 'docs', sources: ['trace'] })
    ).entries.filter((entry) => entry.direction === 'out');
    expect(trace.find((entry) => entry.method === 'initialize')?.body).toContain('"io.modelcontextprotocol/skills":{}');
    expect(trace.some((entry) => entry.method === 'skills/list')).toBe(true);
    expect(trace.filter((entry) => entry.method === 'resources/read')).toEqual([]);

    // The model loads the skill; the person is asked and allows it.
    const { id } = await newConversation(harness);
    fake.script([
      { toolUses: [{ name: 'load_skill', input: { skill: 'docs/report-writing' } }] },
      { text: 'Loaded: {{lastToolResult}}' },
    ]);
    let mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Write a weather report for Oslo' });
    const ask = await pendingAfter(harness, mark, 'skill');
    // Its allowed-tools frontmatter is shown to the person as written, and only to the person.
    expect(ask).toMatchObject({
      server: 'docs',
      conversationId: id,
      payload: {
        stage: 'load',
        skill: 'docs/report-writing',
        changed: false,
        requestedBy: 'model',
        sameNameOn: ['mirror'],
        expectsTools: ['get_forecast', 'Bash(curl:*)'],
      },
    });
    await harness.call('pending.answer', { id: ask.id, response: { decision: 'allow' } });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    // The model was offered the skills by name and description, qualified by server.
    expect(loadToolOf(world, 0)?.description).toContain(
      '- docs/report-writing: How to write a weather report with get_forecast',
    );
    expect(loadToolOf(world, 0)?.description).toContain('- mirror/report-writing:');
    const loaded = toolResultTexts(fake, 1);
    expect(loaded).toContain('[Skill docs/report-writing from server docs');
    expect(loaded).toContain('three short lines');
    await harness.waitForEvent('skills.changed', (c) =>
      c.skills.some((s) => s.qualifiedName === 'docs/report-writing' && s.state === 'approved'),
    );

    // Approved: the same skill loads again without a question.
    fake.script([
      {
        toolUses: [
          { name: 'load_skill', input: { skill: 'docs/report-writing' } },
          { name: 'read_skill_file', input: { skill: 'docs/report-writing', path: 'references/STYLE.md' } },
        ],
      },
      { text: 'ok' },
    ]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Again' });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(
      harness.events
        .slice(mark)
        .some(
          (e) => e.topic === 'pending.changed' && (e.payload as { change: { type: string } }).change.type === 'opened',
        ),
    ).toBe(false);
    expect(toolResultTexts(fake, 3)).toContain('Plain words. No emoji.');

    // The server changes the skill: the catalog says so, and loading it asks again.
    mark = harness.events.length;
    process.kill(docs.pid!, 'SIGUSR1');
    await eventAfter(harness, mark, 'skills.changed', (c) =>
      c.skills.some((s) => s.qualifiedName === 'docs/report-writing' && s.state === 'changed'),
    );
    fake.script([
      { toolUses: [{ name: 'load_skill', input: { skill: 'docs/report-writing' } }] },
      { text: 'v2: {{lastToolResult}}' },
    ]);
    await harness.call('chat.send', { id, text: 'And now?' });
    const again = await pendingAfter(harness, mark, 'skill');
    expect(again.payload).toMatchObject({ stage: 'load', changed: true });
    await harness.call('pending.answer', { id: again.id, response: { decision: 'deny' } });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    expect(toolResultTexts(fake, 5)).toContain("the person declined to load skill 'docs/report-writing'");
    expect(toolResultTexts(fake, 5)).not.toContain('haiku');
  });

  it(
    'grants nothing for allowed-tools: a tool the loaded skill names still asks before it runs',
    { timeout: 60_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await addSkillsServer(harness, 'docs');
      await harness.waitForEvent('skills.changed', (c) => c.skills.length === 2);
      const { id } = await newConversation(harness);
      fake.script([
        { toolUses: [{ name: 'load_skill', input: { skill: 'docs/report-writing' } }] },
        { toolUses: [{ name: 'docs__get_forecast', input: { city: 'Oslo' } }] },
        { text: 'Oslo: {{lastToolResult}}' },
      ]);
      const mark = harness.events.length;
      await harness.call('chat.send', { id, text: 'Weather report for Oslo' });
      const ask = await pendingAfter(harness, mark, 'skill');
      await harness.call('pending.answer', { id: ask.id, response: { decision: 'allow' } });
      const consent = await pendingAfter(harness, mark, 'tool-call');
      expect(consent).toMatchObject({ server: 'docs', payload: expect.objectContaining({ tool: 'get_forecast' }) });
      await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      // Berth's own words to the model say nothing of the list (the skill's own text is the server's).
      const loaded = toolResultTexts(fake, 1);
      expect(loaded).toContain('every tool call still asks for consent');
      expect(loaded).not.toMatch(/expects to use|pre-?approved/i);
    },
  );

  it("refuses bytes that do not match the manifest, and asks before a skill steers the model to another server's tools", async () => {
    world = await startChatWorld();
    const { harness, fake } = world;
    await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
    await addSkillsServer(harness, 'docs');
    await addSkillsServer(harness, 'archive', { SKILLS_FIXTURE_EXTRA_TOOL: 'archive_notes' });
    await harness.waitForEvent('skills.changed', (c) => c.skills.length === 4);
    const { id } = await newConversation(harness);

    // A skill the server does not offer: refused with a code the composer words, the English beside it.
    expect(
      await harness.host.dispatch('skills.attach', {
        server: 'docs',
        uri: 'skill://nope/SKILL.md',
        conversationId: id,
      }),
    ).toMatchObject({
      ok: false,
      code: 'SERVER_ERROR',
      message:
        "server 'docs' offers no skill at skill://nope/SKILL.md (its skills may have changed: see the current list)",
      hostMessage: { code: 'skills-errors.no-skill', params: { server: 'docs', uri: 'skill://nope/SKILL.md' } },
    });

    // The person picks docs/cross-notes from the composer: approval, then the cross-server question naming archive's tool.
    const attached = harness.call<ChatAttachment>('skills.attach', {
      server: 'docs',
      uri: 'skill://cross-notes/SKILL.md',
      conversationId: id,
    });
    let mark = 0;
    const first = await pendingAfter(harness, mark, 'skill');
    expect(first.payload).toMatchObject({ stage: 'load', requestedBy: 'person' });
    mark = harness.events.length;
    await harness.call('pending.answer', { id: first.id, response: { decision: 'allow' } });
    const cross = await pendingAfter(harness, mark, 'skill');
    expect(cross.payload).toMatchObject({
      stage: 'cross-server',
      crossReferences: [{ server: 'archive', tools: ['archive_notes'], roots: [] }],
    });
    await harness.call('pending.answer', { id: cross.id, response: { decision: 'allow' } });
    const attachment = await attached;
    expect(attachment).toMatchObject({
      server: 'docs',
      label: 'Skill docs/cross-notes',
      content: { type: 'resource', resource: { uri: 'skill://cross-notes/SKILL.md' } },
    });
    expect(JSON.stringify(attachment)).toContain("allowed it to refer to server 'archive'");

    // Tampered bytes (the manifest still describes the old file): refused with the reason, for the model.
    fake.script([
      { toolUses: [{ name: 'docs__tamper_skill', input: {} }] },
      { toolUses: [{ name: 'load_skill', input: { skill: 'docs/report-writing' } }] },
      { text: 'done' },
    ]);
    mark = harness.events.length;
    await harness.call('chat.send', { id, text: 'Tamper, then load' });
    const consent = await pendingAfter(harness, mark, 'tool-call');
    await harness.call('pending.answer', { id: consent.id, response: { decision: 'allow-once' } });
    const ask = await pendingAfter(harness, mark, 'skill');
    await harness.call('pending.answer', { id: ask.id, response: { decision: 'allow' } });
    expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
    const refused = toolResultTexts(fake, 2);
    expect(refused).toContain('does not match its SHA-256 digest');
    expect(refused).not.toContain('seven short lines');
    const after = await harness.call<SkillCatalog>('skills.list', {});
    expect(after.skills.find((s) => s.qualifiedName === 'docs/report-writing')).toMatchObject({ state: 'approved' });
  });

  it(
    "asks before any file of a skill steers the model to another server's tool by its qualified name (server__tool)",
    { timeout: 60_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await addSkillsServer(harness, 'docs', { SKILLS_FIXTURE_SLY: '1' });
      await addSkillsServer(harness, 'archive', { SKILLS_FIXTURE_EXTRA_TOOL: 'archive_notes' });
      await harness.waitForEvent('skills.changed', (c) => c.skills.length === 4);
      const { id } = await newConversation(harness);

      // SKILL.md names no other server: one question, to load it. Its references/KEEP.md names archive__archive_notes: a second question before the model reads it.
      fake.script([
        { toolUses: [{ name: 'load_skill', input: { skill: 'docs/cross-notes' } }] },
        { toolUses: [{ name: 'read_skill_file', input: { skill: 'docs/cross-notes', path: 'references/KEEP.md' } }] },
        { text: 'ok' },
      ]);
      let mark = harness.events.length;
      await harness.call('chat.send', { id, text: 'Keep notes' });
      const load = await pendingAfter(harness, mark, 'skill');
      expect(load.payload).toMatchObject({ stage: 'load' });
      mark = harness.events.length;
      await harness.call('pending.answer', { id: load.id, response: { decision: 'allow' } });
      const cross = await pendingAfter(harness, mark, 'skill');
      expect(cross.payload).toMatchObject({
        stage: 'cross-server',
        skill: 'docs/cross-notes',
        crossReferences: [{ server: 'archive', tools: ['archive_notes'], roots: [] }],
      });
      await harness.call('pending.answer', { id: cross.id, response: { decision: 'deny' } });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      expect(toolResultTexts(fake, 1)).toContain('Keep notes of each report');
      const refused = toolResultTexts(fake, 2);
      expect(refused).toContain(
        "the person declined to let skill 'docs/cross-notes' direct the use of server 'archive'",
      );
      expect(refused).not.toContain('Pass every report');
    },
  );

  it(
    'caps a long skill for the model like a tool result: beginning, end and a note, the rest readable in parts',
    { timeout: 60_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await addSkillsServer(harness, 'docs', { SKILLS_FIXTURE_LONG_LINES: '20000' });
      await harness.waitForEvent('skills.changed', (c) => c.skills.length === 2);
      const { id } = await newConversation(harness);
      fake.script([
        { toolUses: [{ name: 'load_skill', input: { skill: 'docs/cross-notes' } }] },
        {
          toolUses: [
            { name: 'read_tool_result', input: { result_id: 'toolu_fake_1_1', offset: 400_000, length: 200 } },
          ],
        },
        { text: 'ok' },
      ]);
      const mark = harness.events.length;
      await harness.call('chat.send', { id, text: 'Keep notes' });
      const load = await pendingAfter(harness, mark, 'skill');
      await harness.call('pending.answer', { id: load.id, response: { decision: 'allow' } });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      const sent = toolResultTexts(fake, 1);
      expect(sent.length).toBeLessThanOrEqual(10_000 * 4);
      expect(sent).toContain('[Skill docs/cross-notes from server docs');
      expect(sent).toContain('END OF NOTES');
      expect(sent).toContain('[Berth cut this tool result: it is');
      expect(sent).toContain('call read_tool_result with result_id "toolu_fake_1_1"');
      expect(sent).not.toContain('Note line 10000 of');
      expect(toolResultTexts(fake, 2)).toMatch(/Note line \d+ of the long notes/);
      // The conversation keeps the whole skill: a window gets a preview of a result this big, and reads the rest in pages.
      const saved = await harness.call<{
        messages: {
          content: { type: string; toolUseId?: string; whole?: { chars: number }; capped?: unknown }[];
        }[];
      }>('chat.get', { id });
      const result = saved.messages[2]?.content[0];
      expect(result?.capped).toMatchObject({ limitTokens: 10_000 });
      const whole = await harness.call<{ text: string; nextOffset: number | null }>('chat.readResult', {
        id,
        toolUseId: result?.toolUseId,
        offset: 0,
        limit: result?.whole?.chars ?? 1,
      });
      expect(whole.nextOffset).toBeNull();
      expect(whole.text).toContain('Note line 10000 of the long notes.');
      expect(whole.text).toContain('END OF NOTES');
    },
  );
});
