import { describe, expect, it } from 'vitest';
import { ServerNameSchema } from '../../shared/domain/server';
import { looksSecret } from './secret-names';
import { uniqueServerName, validServerName } from './server-names';

describe('validServerName', () => {
  it.each([
    ['github', 'github'],
    ['  spaced name ', 'spaced name'],
    ['@scope/pkg', 'scope-pkg'],
    ['_private', 'private'],
    ['日本語', 'server'],
    ['x'.repeat(80), 'x'.repeat(64)],
  ])('%s → %s', (raw, expected) => {
    expect(validServerName(raw)).toBe(expected);
    expect(ServerNameSchema.safeParse(expected).success).toBe(true);
  });
});

describe('uniqueServerName', () => {
  it('adds a number, keeping within 64 characters', () => {
    expect(uniqueServerName('a', new Set(['a', 'a 2']))).toBe('a 3');
    const long = 'y'.repeat(64);
    const name = uniqueServerName(long, new Set([long]));
    expect(name).toBe(`${'y'.repeat(62)} 2`);
    expect(ServerNameSchema.safeParse(name).success).toBe(true);
  });
});

describe('looksSecret', () => {
  it.each([
    'GITHUB_PERSONAL_ACCESS_TOKEN',
    'OPENAI_API_KEY',
    'APIKEY',
    'DB_PASSWORD',
    'CLIENT_SECRET',
    'AWS_SECRET_ACCESS_KEY',
    'GITLAB_PAT',
    'SESSION',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ])('%s is secret', (key) => expect(looksSecret(key)).toBe(true));
  it.each(['PATH', 'HOME', 'KEYBOARD_LAYOUT', 'GITHUB_API_URL', 'LOG_LEVEL', 'PATHEXT', 'PWD'])(
    '%s is not secret',
    (key) => expect(looksSecret(key)).toBe(false),
  );
});
