import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { SkillInfo } from '../../shared/domain/skills';
import type { HostOfferContext } from '../chat/host-tools/host-tool';
import { hostToolNameProblem } from '../chat/host-tools/host-tool';
import type { SkillOutcome } from './skill-loader';
import { LOAD_SKILL, READ_SKILL_FILE, loadSkillDescription, skillToolProvider } from './skill-tools';

function skill(
  server: string,
  name: string,
  state: SkillInfo['state'] = 'available',
  description = `About ${name}`,
): SkillInfo {
  return {
    server,
    uri: `skill://${name}/SKILL.md`,
    name,
    qualifiedName: `${server}/${name}`,
    description,
    files: [],
    totalBytes: 0,
    state,
    sameNameOn: [],
  };
}

const conversation = (disabledServers: string[] = []): Conversation =>
  ({
    id: 'c1',
    title: 't',
    createdAt: 0,
    updatedAt: 0,
    model: 'm',
    messages: [],
    disabledServers,
    disabledTools: [],
  }) as Conversation;
const context = (disabledServers: string[] = []): HostOfferContext => ({
  conversation: conversation(disabledServers),
  enabled: [],
  names: undefined as never,
  contextWindow: undefined,
});
const runContext = {
  conversationId: 'c1',
  toolUseId: 'tu1',
  signal: new AbortController().signal,
  conversation: conversation(),
};

describe('skill host tools', () => {
  const skills = [
    skill('docs', 'report-writing'),
    skill('evil', 'report-writing'),
    skill('docs', 'broken', 'refused'),
    skill('off', 'other'),
  ];
  const loads: Array<[string, string]> = [];
  const provider = skillToolProvider({
    catalog: () => ({ skills, problems: [] }),
    byQualifiedName: (name) => skills.find((s) => s.qualifiedName === name),
    load: async (server, uri): Promise<SkillOutcome> => {
      loads.push([server, uri]);
      return { ok: true, text: `<skill>${server}</skill>`, skill: skills[0]! };
    },
    readFile: async (): Promise<SkillOutcome> => ({
      ok: false,
      problem: "'x' is not a file of skill 'docs/report-writing'",
    }),
  });

  it('has names no MCP tool can take', () => {
    for (const name of provider.names) expect(hostToolNameProblem(name)).toBeUndefined();
  });

  it('offers load_skill listing each skill by server/name, leaving out refused skills and switched-off servers', () => {
    const offer = provider.offer(context(['off']));
    expect(offer.tools.map((tool) => tool.name)).toEqual([LOAD_SKILL, READ_SKILL_FILE]);
    const description = offer.tools[0]!.description;
    expect(description).toContain('- docs/report-writing: About report-writing');
    expect(description).toContain('- evil/report-writing: About report-writing');
    expect(description).not.toContain('docs/broken');
    expect(description).not.toContain('off/other');
  });

  it('offers nothing when no server of the conversation has a skill', () => {
    expect(provider.offer(context(['docs', 'evil', 'off'])).tools).toEqual([]);
  });

  it('loads by the qualified name only: a bare name is refused with the choices', async () => {
    const load = provider.offer(context()).tools[0]!;
    const bare = await load.run({ skill: 'report-writing' }, runContext);
    expect(bare).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('Choose one of: docs/report-writing, evil/report-writing') }],
    });
    const qualified = await load.run({ skill: 'evil/report-writing' }, runContext);
    expect(qualified).toMatchObject({ isError: false, summary: 'loaded skill evil/report-writing from evil' });
    expect(loads).toEqual([['evil', 'skill://report-writing/SKILL.md']]);
  });

  it("passes a refused file read on to the model as the tool's error", async () => {
    const read = provider.offer(context()).tools[1]!;
    expect(await read.run({ skill: 'docs/report-writing', path: 'x' }, runContext)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('is not a file of skill') }],
    });
    expect(await read.run({ skill: 'docs/report-writing' }, runContext)).toMatchObject({
      isError: true,
      summary: 'was given no file path',
    });
  });

  it('keeps the description bounded however many skills there are', () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      skill('s', `skill-${String.fromCharCode(97 + (i % 26))}${i}`, 'available', 'x'.repeat(1_000)),
    );
    const description = loadSkillDescription(many);
    expect(description).toContain('(and 60 more)');
    expect(description.length).toBeLessThan(40 * 240 + 600);
  });
});
