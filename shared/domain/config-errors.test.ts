import { describe, expect, it } from 'vitest';
import { configError } from './config-errors';

describe("config's failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [
      configError('config-errors.file-has-errors', { file: '/c/config.json', detail: 'line 2, column 5: bad' }),
      'The config file /c/config.json has errors (line 2, column 5: bad). Berth will not overwrite it: fix it in the editor first.',
    ],
    [
      configError('config-errors.duplicate-keys', { name: 'alpha' }),
      'The config entry "alpha" has duplicate keys, so an edit would be ambiguous; fix it in the editor first',
    ],
    [
      configError('config-errors.import-too-large', { path: '/a.json', bytes: 2048 }),
      '/a.json is too large for a config file (2048 bytes)',
    ],
    [
      configError('config-errors.import-no-sandbox', { reason: 'no bwrap' }),
      'The sandbox is unavailable here: no bwrap. Turn the sandbox off to import unprotected.',
    ],
    [
      configError('config-errors.import-no-sandbox-install', { reason: 'no bwrap', install: 'Install bubblewrap.' }),
      'The sandbox is unavailable here: no bwrap. Install bubblewrap. Turn the sandbox off to import unprotected.',
    ],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
  });

  it('sends the facts, never the words', () => {
    expect(configError('config-errors.issuer-set', { name: 'r', issuer: 'https://a.example' }).hostMessage).toEqual({
      code: 'config-errors.issuer-set',
      params: { name: 'r', issuer: 'https://a.example' },
    });
  });
});
