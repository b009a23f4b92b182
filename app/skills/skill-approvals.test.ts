import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillApprovals } from './skill-approvals';
import { checkEntry, type SkillEntry } from './skill-entry';
import { manifestDigest } from './skill-manifest';
import { skillFixture } from './skill-test-support';

function entryOf(raw: unknown): SkillEntry {
  const checked = checkEntry(raw);
  if (!checked.ok) throw new Error(checked.refused.problem);
  return checked.entry;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('manifest-bound approval', () => {
  const v1 = entryOf(
    skillFixture('refunds', 'Process refunds', 'Version one.\n', { 'examples/email.md': 'Dear customer\n' }).entry,
  );
  const v2 = entryOf(
    skillFixture('refunds', 'Process refunds', 'Version two.\n', { 'examples/email.md': 'Dear customer\n' }).entry,
  );

  it('gives another digest when a file changes, one is added, or the frontmatter changes; the same for reordered keys', () => {
    const added = entryOf(
      skillFixture('refunds', 'Process refunds', 'Version one.\n', {
        'examples/email.md': 'Dear customer\n',
        'extra.md': 'x',
      }).entry,
    );
    const described = entryOf(
      skillFixture('refunds', 'Process refunds now', 'Version one.\n', { 'examples/email.md': 'Dear customer\n' })
        .entry,
    );
    const digests = new Set([v1, v2, added, described].map(manifestDigest));
    expect(digests.size).toBe(4);
    const reordered: SkillEntry = {
      ...v1,
      frontmatter: { description: v1.frontmatter.description, name: v1.frontmatter.name },
      files: [...v1.files].reverse(),
    };
    expect(manifestDigest(reordered)).toBe(manifestDigest(v1));
  });

  it('covers only the manifest that was approved: a changed skill asks again, and says it changed', () => {
    const approvals = new SkillApprovals({ warn: () => undefined });
    approvals.approve('docs', v1.uri, manifestDigest(v1));
    expect(approvals.covering('docs', v1.uri, manifestDigest(v1))).toBeDefined();
    expect(approvals.covering('docs', v2.uri, manifestDigest(v2))).toBeUndefined();
    expect(approvals.approvedBefore('docs', v2.uri, manifestDigest(v2))).toBe(true);
  });

  it('is keyed by server and URI: the same skill URI on another server is not approved', () => {
    const approvals = new SkillApprovals({ warn: () => undefined });
    approvals.approve('docs', v1.uri, manifestDigest(v1));
    expect(approvals.covering('impostor', v1.uri, manifestDigest(v1))).toBeUndefined();
    expect(approvals.approvedBefore('impostor', v1.uri, manifestDigest(v1))).toBe(false);
  });

  it('survives a restart, and is forgotten with its server', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'berth-skill-approvals-'));
    dirs.push(stateDir);
    const first = new SkillApprovals({ stateDir, warn: () => undefined });
    await first.ready();
    first.approve('docs', v1.uri, manifestDigest(v1), ['files']);
    await first.flush();
    const second = new SkillApprovals({ stateDir, warn: () => undefined });
    await second.ready();
    expect(second.covering('docs', v1.uri, manifestDigest(v1))).toMatchObject({ crossServers: ['files'] });
    second.forgetServer('docs');
    await second.flush();
    const third = new SkillApprovals({ stateDir, warn: () => undefined });
    await third.ready();
    expect(third.covering('docs', v1.uri, manifestDigest(v1))).toBeUndefined();
  });
});

describe('approvals follow their server', () => {
  it('moves a renamed server’s approvals and others’ leave to reach it; a removal drops both', () => {
    const approvals = new SkillApprovals({ warn: () => undefined, now: () => 1 });
    approvals.approve('docs', 'skill://a/SKILL.md', 'm1', ['archive']);
    approvals.approve('archive', 'skill://b/SKILL.md', 'm2', ['docs', 'web']);
    approvals.renameServer('docs', 'handbook');
    expect(approvals.covering('docs', 'skill://a/SKILL.md', 'm1')).toBeUndefined();
    expect(approvals.covering('handbook', 'skill://a/SKILL.md', 'm1')?.crossServers).toEqual(['archive']);
    expect(approvals.covering('archive', 'skill://b/SKILL.md', 'm2')?.crossServers).toEqual(['handbook', 'web']);
    approvals.forgetServer('archive');
    expect(approvals.covering('archive', 'skill://b/SKILL.md', 'm2')).toBeUndefined();
    expect(approvals.covering('handbook', 'skill://a/SKILL.md', 'm1')?.crossServers).toEqual([]);
  });
});
