import { describe, expect, it } from 'vitest';
import { rootError } from './root-errors';

describe("roots' failures: a code with its facts, and the English Berth always said", () => {
  it('words a folder that cannot be added by what is wrong with it', () => {
    expect(rootError('root-errors.cannot-add', { path: '/gone', problem: 'missing', detail: '' })).toEqual({
      text: 'Cannot add this root: the folder /gone does not exist',
      hostMessage: { code: 'root-errors.cannot-add', params: { path: '/gone', problem: 'missing', detail: '' } },
    });
    expect(rootError('root-errors.cannot-share-new', { path: '/f', problem: 'notFolder', detail: '' }).text).toBe(
      'Cannot share the new folder: /f is a file, not a folder',
    );
    expect(rootError('root-errors.cannot-add', { path: '/x', problem: 'unchecked', detail: 'EIO' }).text).toBe(
      'Cannot add this root: the folder /x cannot be checked: EIO',
    );
  });

  it('keeps names and numbers as facts', () => {
    expect(rootError('root-errors.already-root', { path: '/p', name: 'Project' })).toEqual({
      text: "/p is already a root, named 'Project'",
      hostMessage: { code: 'root-errors.already-root', params: { path: '/p', name: 'Project' } },
    });
    expect(rootError('root-errors.name-too-long', { max: 200 }).text).toBe('a root name can be at most 200 characters');
  });
});
