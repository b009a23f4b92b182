import { describe, expect, it } from 'vitest';
import { skillsError } from './skills-errors';

describe('a skill not loaded: a code with its facts, and the English Berth always said', () => {
  it('names the server, the skill and its file as facts', () => {
    expect(skillsError('skills-errors.no-skill', { server: 'docs', uri: 'skill://x/SKILL.md' })).toEqual({
      text: "server 'docs' offers no skill at skill://x/SKILL.md (its skills may have changed: see the current list)",
      hostMessage: { code: 'skills-errors.no-skill', params: { server: 'docs', uri: 'skill://x/SKILL.md' } },
    });
    expect(
      skillsError('skills-errors.file-failed', {
        server: 'docs',
        uri: 'skill://x/SKILL.md',
        name: 'docs/x',
        detail: 'timed out',
      }).text,
    ).toBe("server 'docs' could not send skill://x/SKILL.md of skill 'docs/x': timed out");
  });

  it("keeps the check's own words as the detail", () => {
    expect(skillsError('skills-errors.unverified', { detail: 'SKILL.md is 10 bytes' }).text).toBe(
      'SKILL.md is 10 bytes. Berth did not use it; if the skill changed on the server, it will ask for approval again.',
    );
  });
});
