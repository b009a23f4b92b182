import { describe, expect, it } from 'vitest';
import { configError } from './config-errors';

describe("config's failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [
      configError(
        'config-errors.file-has-errors-at',
        {
          file: '/c/config.json',
          line: 2,
          column: 5,
          more: 0,
          reason: 'Expected a value',
        },
        { code: 'config-problems.syntax', params: { error: 'ValueExpected' } },
      ),
      'The config file /c/config.json has errors (line 2, column 5: Expected a value). Berth will not overwrite it: fix it in the editor first.',
    ],
    [
      configError('config-errors.file-has-errors', { file: '/c/config.json', more: 2, reason: 'bad' }),
      'The config file /c/config.json has errors (bad (and 2 more)). Berth will not overwrite it: fix it in the editor first.',
    ],
    [
      configError('config-errors.edit-invalid-at', { line: 3, column: 1, more: 1, reason: 'Expected a value' }),
      'Editing the config produced an invalid file: line 3, column 1: Expected a value (and 1 more)',
    ],
    [
      configError('config-errors.edit-invalid', { more: 0, reason: 'bad' }),
      'Editing the config produced an invalid file: bad',
    ],
    [
      configError('config-errors.edit-invalid-unknown', {}),
      'Editing the config produced an invalid file: unknown problem',
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
