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

  it('words a folder too broad to share by how much it holds', () => {
    expect(rootError('root-errors.broad-folder', { path: '/home/me', scope: 'home', home: '/home/me' })).toEqual({
      text: "/home/me is your home folder: every server you allow would see and could change all of your files in it, not just one project's. Share it only if you mean to.",
      hostMessage: { code: 'root-errors.broad-folder', params: { path: '/home/me', scope: 'home', home: '/home/me' } },
    });
    expect(
      rootError('root-errors.broad-folder', { path: '/home', scope: 'holdsHome', home: '/home/me' }).text,
    ).toContain('/home is a folder that holds your home folder (/home/me):');
    expect(rootError('root-errors.broad-folder', { path: '/', scope: 'fileSystem', home: '/home/me' }).text).toContain(
      '/ is the whole file system:',
    );
  });

  it("keeps a path's own spelling as a fact, backslashes included", () => {
    expect(rootError('root-errors.path-drive-relative', { path: 'C:Users', drive: 'C:' })).toEqual({
      text: "'C:Users' is relative to the current folder of drive C:; write C:\\ and the full path",
      hostMessage: { code: 'root-errors.path-drive-relative', params: { path: 'C:Users', drive: 'C:' } },
    });
    expect(rootError('root-errors.no-folder-dialog', { shell: 'browser' }).text).toBe(
      'Berth runs in a browser tab here, which cannot open a system folder dialog: use the folder browser (roots.browse) instead',
    );
  });
});
