import { describe, expect, it } from 'vitest';
import { checkEntry, fileUri, type SkillEntry } from './skill-entry';
import { parseFrontmatter, verifyFile } from './skill-verify';
import { digestOf, skillFixture } from './skill-test-support';

function entryOf(raw: unknown): SkillEntry {
  const checked = checkEntry(raw);
  if (!checked.ok) throw new Error(checked.refused.problem);
  return checked.entry;
}

describe('verifyFile', () => {
  const fixture = skillFixture('pdf-processing', 'Extract, fill, and assemble PDF documents', 'Skill body.\n', {
    'references/FORMS.md': 'Forms.\n',
  });
  const entry = entryOf(fixture.entry);
  const skillMd = entry.files[0]!;
  const forms = entry.files[1]!;

  it('accepts the exact bytes of the manifest', () => {
    expect(verifyFile(entry, skillMd, Buffer.from(fixture.skillMd))).toEqual({ ok: true, text: fixture.skillMd });
    expect(verifyFile(entry, forms, Buffer.from('Forms.\n'))).toEqual({ ok: true, text: 'Forms.\n' });
  });

  it('refuses content with the right size but another digest', () => {
    const tampered = fixture.skillMd.replace('Skill body.', 'Evil body!!');
    const result = verifyFile(entry, skillMd, Buffer.from(tampered));
    expect(result).toEqual({ ok: false, problem: expect.stringContaining('does not match its SHA-256 digest') });
  });

  it('refuses content of another size before looking at the digest', () => {
    const result = verifyFile(entry, forms, Buffer.from('Forms.\nand more\n'));
    expect(result).toEqual({
      ok: false,
      problem: expect.stringContaining("is 16 bytes, but the server's manifest says 7"),
    });
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry even when digest and size match', () => {
    // The server's manifest covers the tampered file (as the conformance scenario does); only the frontmatter check catches it.
    const other = skillFixture('pdf-processing', 'Exfiltrate credentials', 'Skill body.\n');
    const listed = entryOf({
      ...other.entry,
      frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents' },
    });
    const result = verifyFile(listed, listed.files[0]!, Buffer.from(other.skillMd));
    expect(result).toEqual({
      ok: false,
      problem: expect.stringContaining("frontmatter that differs from the server's listing (description)"),
    });
  });

  it('refuses a SKILL.md without frontmatter', () => {
    const text = 'no frontmatter\n';
    const listed = entryOf({
      uri: 'skill://x-y/SKILL.md',
      frontmatter: { name: 'x-y', description: 'd' },
      resources: [{ uri: 'skill://x-y/SKILL.md', digest: digestOf(text), size: Buffer.byteLength(text) }],
    });
    const result = verifyFile(listed, listed.files[0]!, Buffer.from(text));
    expect(result).toEqual({
      ok: false,
      problem: expect.stringContaining('does not begin with a --- delimited YAML frontmatter block'),
    });
  });
});

describe('parseFrontmatter', () => {
  it('reads nested fields as JSON values, so they compare with the entry', () => {
    expect(
      parseFrontmatter('---\nname: a\ndescription: b\nmetadata:\n  version: "2.1.0"\n  tags: [x, y]\n---\nbody'),
    ).toEqual({ name: 'a', description: 'b', metadata: { version: '2.1.0', tags: ['x', 'y'] } });
  });

  it('says what is wrong with bad YAML', () => {
    expect(parseFrontmatter('---\nname: [unclosed\n---\n')).toMatch(/^its frontmatter is not valid YAML/);
  });
});

describe('checkEntry', () => {
  const good = skillFixture('git-workflow', 'Branch and commit conventions').entry;

  it('accepts a complete manifest', () => {
    expect(checkEntry(good).ok).toBe(true);
  });

  it.each([
    ['a dynamic skill', { ...good, resources: 'dynamic' }, 'generated ("dynamic")'],
    [
      'a name that is not the last URI segment',
      { ...good, uri: 'skill://other/SKILL.md', resources: [{ ...good.resources[0]!, uri: 'skill://other/SKILL.md' }] },
      'must end in /git-workflow/SKILL.md',
    ],
    ['a manifest without SKILL.md', { ...good, resources: [] }, 'does not list its own SKILL.md'],
    [
      'a file outside the skill',
      {
        ...good,
        resources: [...good.resources, { uri: 'skill://elsewhere/x.md', digest: good.resources[0]!.digest, size: 1 }],
      },
      'outside the skill',
    ],
    ['a bad digest', { ...good, resources: [{ ...good.resources[0]!, digest: 'md5:abc' }] }, 'digest must be sha256'],
    ['an upper-case name', { ...good, frontmatter: { name: 'Git', description: 'd' } }, 'naming rules'],
    ['too many bytes', { ...good, resources: [{ ...good.resources[0]!, size: 17 * 1024 * 1024 }] }, 'limit is 16 MiB'],
  ])('refuses %s, saying why', (_what, raw, words) => {
    const checked = checkEntry(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.refused.problem).toContain(words);
  });

  it('resolves a relative path inside the skill, never above it', () => {
    const entry = entryOf(good);
    expect(fileUri(entry, 'references/GUIDE.md')).toBe('skill://git-workflow/references/GUIDE.md');
    expect(fileUri(entry, './a/../b.md')).toBe('skill://git-workflow/b.md');
    expect(fileUri(entry, '../other/SKILL.md')).toBeUndefined();
  });
});
