import { describe, expect, it } from 'vitest';
import { settingsError } from './settings-errors';

describe("settings' failures: a code with its facts, and the English Berth always said", () => {
  it.each([
    [
      settingsError('settings-errors.not-an-api-key', {}),
      'That does not look like an API key (no spaces, at least 8 characters)',
    ],
    [
      settingsError('settings-errors.result-limit-range', { min: 500, max: 500_000 }),
      'A result limit is a whole number of tokens from 500 to 500,000',
    ],
    [
      settingsError('settings-errors.unknown-model', { model: 'gpt-x', models: 'a, b', file: '/s.json' }),
      "Unknown model 'gpt-x': choose one of a, b (the list is in /s.json, and providers in Settings)",
    ],
    [
      settingsError('settings-errors.provider-id-taken', { id: 'lab' }),
      "There is already a provider 'lab'; choose another id",
    ],
  ])('%j', (words, english) => {
    expect(words.text).toBe(english);
  });

  it('sends numbers as numbers, for the renderer to format in the person’s locale', () => {
    expect(settingsError('settings-errors.result-limit-range', { min: 500, max: 500_000 }).hostMessage).toEqual({
      code: 'settings-errors.result-limit-range',
      params: { min: 500, max: 500_000 },
    });
  });
});
