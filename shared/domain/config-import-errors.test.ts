import { describe, expect, it } from 'vitest';
import { configImportError } from './config-import-errors';

describe("an import's refusals and notes: a code with its facts, and the English Berth always said", () => {
  it('names the field, the input and the variable as facts', () => {
    expect(configImportError('config-import-errors.env-not-set', { field: 'env.TOKEN', variable: 'GH_TOKEN' })).toEqual(
      {
        text: '"env.TOKEN" uses the environment variable GH_TOKEN, which is not set',
        hostMessage: {
          code: 'config-import-errors.env-not-set',
          params: { field: 'env.TOKEN', variable: 'GH_TOKEN' },
        },
      },
    );
    expect(
      configImportError('config-import-errors.variable-unknown', { field: 'cwd', variable: 'fileDirname' }).text,
    ).toBe('"cwd" uses ${fileDirname}: Berth cannot fill it in, edit the value by hand');
    expect(configImportError('config-import-errors.file-unreadable-at', { line: 3, column: 7, reason: 'x' }).text).toBe(
      'The file cannot be read (line 3, column 7: x): nothing was imported',
    );
  });

  it("says the JSON parser's errors of a foreign file in its own words, the bracket a fact", () => {
    expect(configImportError('config-import-errors.trailing-comma', { found: '}' })).toEqual({
      text: "Trailing comma before '}': this file is strict JSON, remove the ','",
      hostMessage: { code: 'config-import-errors.trailing-comma', params: { found: '}' } },
    });
    expect(configImportError('config-import-errors.comment', {}).text).toBe(
      'Comments are not allowed in this file: it is strict JSON',
    );
    expect(configImportError('config-import-errors.comment-not-closed', {}).text).toBe('A comment is not closed');
  });
});
