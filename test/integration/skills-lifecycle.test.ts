import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatAttachment } from '../../shared/domain/chat';
import type { ServerState } from '../../shared/domain/server';
import type { SkillCatalog } from '../../shared/domain/skills';
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

// What skills keep for a server or a conversation goes when that goes (the skills-server fixture,
// the whole host): approvals follow a rename and leave with a removal, and a deleted conversation
// holds no loaded skill.

const fixture = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures', 'servers', 'skills-server.mjs');

let world: ChatWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const configOf = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [fixture], env });

async function addSkillsServer(
  harness: HostHarness,
  name: string,
  env: Record<string, string> = {},
): Promise<ServerState> {
  await harness.call('servers.add', { name, config: configOf(env) });
  return harness.waitForEvent('servers.changed', (state) => state.name === name && state.status === 'ready');
}

interface StoredApprovals {
  approvals: { server: string; uri: string; crossServers: string[] }[];
}

/** skill-approvals.json as written (saves are in the background: wait until it says what `done` wants). */
async function storedApprovals(dir: string, done: (stored: StoredApprovals) => boolean): Promise<StoredApprovals> {
  const file = join(dir, 'state', 'skill-approvals.json');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stored = JSON.parse(await readFile(file, 'utf8').catch(() => '{"approvals":[]}')) as StoredApprovals;
    if (done(stored)) return stored;
    if (Date.now() > deadline) throw new Error(`skill-approvals.json still reads ${JSON.stringify(stored)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The person picks a skill in the composer and allows whatever it asks. */
async function attachAllowing(
  harness: HostHarness,
  server: string,
  uri: string,
  conversationId: string,
  questions: number,
): Promise<ChatAttachment> {
  const mark = harness.events.length;
  const attached = harness.call<ChatAttachment>('skills.attach', { server, uri, conversationId });
  let seen = mark;
  for (let i = 0; i < questions; i += 1) {
    const ask = await pendingAfter(harness, seen, 'skill');
    seen = harness.events.length;
    await harness.call('pending.answer', { id: ask.id, response: { decision: 'allow' } });
  }
  return attached;
}

describe('skills follow their server and conversation (skills-server fixture)', () => {
  it(
    "moves a server's skill approvals with a rename, and forgets them (and other skills' leave to reach it) when it is removed",
    { timeout: 60_000 },
    async () => {
      world = await startChatWorld();
      const { harness, dir } = world;
      await addSkillsServer(harness, 'docs');
      await addSkillsServer(harness, 'archive', { SKILLS_FIXTURE_EXTRA_TOOL: 'archive_notes' });
      await harness.waitForEvent('skills.changed', (c) => c.skills.length === 4);
      const { id } = await newConversation(harness);
      // Load, then leave to steer the model to archive's tool.
      await attachAllowing(harness, 'docs', 'skill://cross-notes/SKILL.md', id, 2);
      await storedApprovals(dir, (s) =>
        s.approvals.some((a) => a.server === 'docs' && a.crossServers.includes('archive')),
      );

      // Renamed in Berth: approved under the new name, loads without a question.
      let mark = harness.events.length;
      await harness.call('servers.update', { name: 'docs', newName: 'handbook', config: configOf() });
      await eventAfter(harness, mark, 'skills.changed', (c) =>
        c.skills.some((s) => s.qualifiedName === 'handbook/cross-notes' && s.state === 'approved'),
      );
      const again = await harness.call<ChatAttachment>('skills.attach', {
        server: 'handbook',
        uri: 'skill://cross-notes/SKILL.md',
        conversationId: id,
      });
      expect(again.label).toBe('Skill handbook/cross-notes');
      expect(
        harness.events
          .slice(mark)
          .some(
            (e) =>
              e.topic === 'pending.changed' && (e.payload as { change: { type: string } }).change.type === 'opened',
          ),
      ).toBe(false);
      const renamed = await storedApprovals(dir, (s) => s.approvals.some((a) => a.server === 'handbook'));
      expect(renamed.approvals.map((a) => a.server)).toEqual(['handbook']);

      // Archive removed: no skill keeps leave to reach a later server of that name.
      await harness.call('servers.remove', { name: 'archive' });
      await storedApprovals(dir, (s) => s.approvals.every((a) => !a.crossServers.includes('archive')));

      // Handbook removed: its approvals go; added again under that name, its skills ask afresh.
      await harness.call('servers.remove', { name: 'handbook' });
      await storedApprovals(dir, (s) => s.approvals.length === 0);
      mark = harness.events.length;
      await addSkillsServer(harness, 'handbook');
      const fresh = await eventAfter(harness, mark, 'skills.changed', (c) =>
        c.skills.some((s) => s.qualifiedName === 'handbook/cross-notes'),
      );
      expect(fresh.skills.find((s) => s.qualifiedName === 'handbook/cross-notes')?.state).toBe('available');
      expect((await harness.call<SkillCatalog>('skills.list', {})).skills.every((s) => s.state === 'available')).toBe(
        true,
      );
    },
  );

  it(
    'holds no loaded skill for a deleted conversation: restored, its files are refused until it is loaded again',
    { timeout: 60_000 },
    async () => {
      world = await startChatWorld();
      const { harness, fake } = world;
      await harness.call('settings.setApiKey', { apiKey: TEST_API_KEY });
      await addSkillsServer(harness, 'docs');
      await harness.waitForEvent('skills.changed', (c) => c.skills.length === 2);
      const { id } = await newConversation(harness);
      await attachAllowing(harness, 'docs', 'skill://report-writing/SKILL.md', id, 1);
      const readStyle = {
        toolUses: [{ name: 'read_skill_file', input: { skill: 'docs/report-writing', path: 'references/STYLE.md' } }],
      };

      fake.script([readStyle, { text: 'ok' }]);
      let mark = harness.events.length;
      await harness.call('chat.send', { id, text: 'Check the style' });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      expect(toolResultTexts(fake, 1)).toContain('Plain words. No emoji.');

      await harness.call('chat.delete', { id });
      await harness.call('chat.restore', { id });
      fake.script([readStyle, { text: 'ok' }]);
      mark = harness.events.length;
      await harness.call('chat.send', { id, text: 'Check it again' });
      expect(await turnEndAfter(harness, mark, id)).toMatchObject({ type: 'turn-finished' });
      const refused = toolResultTexts(fake, 3);
      expect(refused).toContain('is not loaded in this conversation: load it first');
      expect(refused).not.toContain('Plain words');
    },
  );
});
