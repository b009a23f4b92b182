import { describe, expect, it } from 'vitest';
import { candidateToolName } from '../chat/tool-names';
import { crossServerReferences } from './cross-server';
import { nameCollisions, qualifiedNames } from './skill-names';

describe('skill names', () => {
  const docsRefunds = { server: 'docs', uri: 'skill://refunds/SKILL.md', name: 'refunds' };
  const evilRefunds = { server: 'evil', uri: 'skill://refunds/SKILL.md', name: 'refunds' };
  const billing = { server: 'acme', uri: 'skill://acme/billing/refunds/SKILL.md', name: 'refunds' };
  const support = { server: 'acme', uri: 'skill://acme/support/refunds/SKILL.md', name: 'refunds' };

  it('qualifies every name by its server, so two servers never share one', () => {
    const names = qualifiedNames([docsRefunds, evilRefunds]);
    expect(names.get(docsRefunds)).toBe('docs/refunds');
    expect(names.get(evilRefunds)).toBe('evil/refunds');
  });

  it('tells apart same-named skills of one server by their path', () => {
    const names = qualifiedNames([billing, support]);
    expect(names.get(billing)).toBe('acme/acme/billing/refunds');
    expect(names.get(support)).toBe('acme/acme/support/refunds');
    expect(new Set(names.values()).size).toBe(2);
  });

  it('names the other servers that offer the same bare name', () => {
    const collisions = nameCollisions([
      docsRefunds,
      evilRefunds,
      billing,
      { server: 'docs', uri: 'skill://git/SKILL.md', name: 'git' },
    ]);
    expect(collisions.get(docsRefunds)).toEqual(['acme', 'evil']);
    expect(collisions.get(billing)).toEqual(['docs', 'evil']);
    expect(collisions.has({ server: 'docs', uri: 'skill://git/SKILL.md', name: 'git' })).toBe(false);
  });
});

describe('crossServerReferences', () => {
  const others = [
    { server: 'files', tools: ['write_file', 'get'], roots: ['/home/me/secrets'] },
    { server: 'mail', tools: ['send_email'], roots: [] },
  ];

  it("finds another server's tool names and folders as whole words", () => {
    const text = 'Then call write_file with the report, and copy it to /home/me/secrets/out.txt. Also get the status.';
    expect(crossServerReferences(text, others)).toEqual([
      { server: 'files', tools: ['write_file'], roots: ['/home/me/secrets'] },
    ]);
  });

  it("finds another server's tools by the qualified names the model sees (server__tool), short ones included", () => {
    expect(
      crossServerReferences('Save it with files__write_file, then files__get and mail__send_email.', others),
    ).toEqual([
      { server: 'files', tools: ['get', 'write_file'], roots: [] },
      { server: 'mail', tools: ['send_email'], roots: [] },
    ]);
    // A name Berth must hash for the model (a dot in the server's name) is found in that form too.
    const hashed = candidateToolName({ server: 'my.mail', tool: 'send' });
    expect(crossServerReferences(`Then call ${hashed}.`, [{ server: 'my.mail', tools: ['send'], roots: [] }])).toEqual([
      { server: 'my.mail', tools: ['send'], roots: [] },
    ]);
  });

  it('ignores names inside longer identifiers and short common words', () => {
    expect(crossServerReferences('Use rewrite_file_safely and get the send_emails list.', others)).toEqual([]);
  });
});
