import { describe, expect, it } from 'vitest';
import { writableFolders } from './sandbox-writable';
import type { WritableEntryKind, WritableFs } from './sandbox-writable';

/** A disk from a list: `dir/` a folder, `a -> /b` a symlink, anything else a file. */
function fakeFs(lines: string[]): WritableFs {
  const kinds = new Map<string, WritableEntryKind>([['/', 'folder']]);
  const links = new Map<string, string>();
  for (const line of lines) {
    const [path = '', target] = line.split(' -> ');
    const clean = path.replace(/\/$/, '');
    kinds.set(clean, target !== undefined ? 'link' : path.endsWith('/') ? 'folder' : 'file');
    if (target !== undefined) links.set(clean, target);
    for (
      let parent = clean.slice(0, clean.lastIndexOf('/'));
      parent !== '';
      parent = parent.slice(0, parent.lastIndexOf('/'))
    )
      kinds.set(parent, 'folder');
  }
  const realPath = (path: string): string | undefined => {
    const parts = path.split('/').filter((part) => part !== '');
    let real = '';
    for (const part of parts) {
      real = `${real}/${part}`;
      const link = links.get(real);
      if (link !== undefined) real = link;
      if (!kinds.has(real)) return undefined;
    }
    return real === '' ? '/' : real;
  };
  return {
    realPath,
    list: (folder) =>
      [...kinds.entries()]
        .filter(([path]) => path !== '/' && path.slice(0, path.lastIndexOf('/') || 1) === folder)
        .map(([path, kind]) => ({ name: path.slice(path.lastIndexOf('/') + 1), kind })),
  };
}

const disk = fakeFs([
  '/home/ann/.bashrc',
  '/home/ann/.config/git/',
  '/home/ann/.config/nvim/',
  '/home/ann/.config/berth/settings.json',
  '/home/ann/.config/berth/sandbox/srv-1/data/',
  '/home/ann/.config/berth/sandbox/other-2/data/',
  '/home/ann/.config/myapp/',
  '/home/ann/.local/bin/',
  '/home/ann/.local/share/applications/',
  '/home/ann/.local/share/fonts/',
  '/home/ann/.myapp/',
  '/home/ann/.ssh/id_rsa',
  '/home/ann/Projects/site/',
  '/home/ann/notes.txt',
  '/home/ann/dots -> /home/ann/.config',
  '/home/ann/elsewhere -> /srv/data',
  '/home/bob/',
  '/srv/data/',
  '/usr/bin/',
  '/etc/',
  '/proc/',
  '/sys/',
  '/dev/',
]);

const home = '/home/ann';
const configDir = '/home/ann/.config/berth';
const never = [
  '/home/ann/.bashrc',
  '/home/ann/.config/git',
  '/home/ann/.config/nvim',
  '/home/ann/.local/bin',
  '/home/ann/.local/share/applications',
  '/home/ann/.ssh',
  '/home/ann/.config/berth/settings.json',
];
const closed = [...never, configDir, `${configDir}/sandbox`];
const own = `${configDir}/sandbox/srv-1/data`;

const writable = (requested: string[], fs = disk, inputs: Partial<{ home: string }> = {}): string[] =>
  writableFolders({ requested, home: inputs.home ?? home, closed, never }, fs).sort();

describe('writableFolders', () => {
  it('opens home as its non-dot entries only: no dotfile or dot-folder, nothing new directly in home, no link followed', () => {
    expect(writable([home, own])).toEqual([own, '/home/ann/Projects', '/home/ann/notes.txt']);
  });

  it('opens /home as the other homes and the non-dot entries of this one', () => {
    expect(writable(['/home'])).toEqual(['/home/ann/Projects', '/home/ann/notes.txt', '/home/bob']);
  });

  it('opens / as everything but the way to home, and never the kernel filesystems bubblewrap mounts itself', () => {
    expect(writable(['/'])).toEqual(['/etc', '/home/ann/Projects', '/home/ann/notes.txt', '/home/bob', '/srv', '/usr']);
  });

  it('keeps a root inside home as it is', () => {
    expect(writable(['/home/ann/Projects/site', own])).toEqual([own, '/home/ann/Projects/site']);
  });

  it('keeps a dot-path the person named exactly, but never a startup file, a secret or Berth’s files', () => {
    expect(writable([home, '/home/ann/.myapp', '/home/ann/.config/myapp'])).toEqual([
      '/home/ann/.config/myapp',
      '/home/ann/.myapp',
      '/home/ann/Projects',
      '/home/ann/notes.txt',
    ]);
    expect(
      writable(['/home/ann/.ssh', '/home/ann/.config/git', '/home/ann/.local/bin/tools', `${configDir}/settings.json`]),
    ).toEqual([]);
  });

  it('opens a named folder that holds closed paths as the rest of it: not Berth’s folder, not another server’s, not a startup folder', () => {
    expect(writable(['/home/ann/.config', own])).toEqual([own, '/home/ann/.config/myapp']);
    expect(writable(['/home/ann/.local'])).toEqual(['/home/ann/.local/share/fonts']);
    expect(writable([configDir, own])).toEqual([own]);
  });

  it('compares real paths: home behind a link is still closed, and the link to it is not writable', () => {
    const linked = fakeFs(['/data/ann/.bashrc', '/data/ann/Work/', '/home/ann -> /data/ann', '/home/bob/']);
    expect(
      writableFolders({ requested: ['/home', '/data'], home: '/home/ann', closed: [], never: [] }, linked).sort(),
    ).toEqual(['/data/ann/Work', '/home/bob']);
    expect(writableFolders({ requested: ['/home/ann'], home: '/home/ann', closed: [], never: [] }, linked)).toEqual([
      '/data/ann/Work',
    ]);
  });

  it('keeps a requested path that does not exist yet (the runtime leaves it read-only until it does)', () => {
    expect(writable(['/home/ann/Projects/new'])).toEqual(['/home/ann/Projects/new']);
  });
});
