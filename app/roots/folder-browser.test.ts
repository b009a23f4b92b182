import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { listFolders, MAX_FOLDER_ENTRIES } from './folder-browser';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-browse-'));
});

afterEach(async () => {
  await chmod(join(dir, 'locked'), 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostError)) throw new Error(`expected a HostError, got ${String(error)}`);
  return error;
}

describe('listFolders', () => {
  it('lists sub-folders only, sorted as a person expects, dot-folders last', async () => {
    for (const name of ['beta', 'Alpha', '.cache', 'item10', 'item9', '.config']) await mkdir(join(dir, name));
    await writeFile(join(dir, 'notes.txt'), 'a file, not a folder');
    const listing = await listFolders(dir, { platform: 'linux', home: dir });
    expect(listing.entries.map((e) => e.name)).toEqual(['Alpha', 'beta', 'item9', 'item10', '.cache', '.config']);
    expect(listing.entries[0]).toEqual({ name: 'Alpha', path: join(dir, 'Alpha'), readable: true });
    expect(listing.path).toBe(dir);
    expect(listing.truncated).toBe(false);
  });

  it('lists the home folder when no path is given, and names the parent', async () => {
    await mkdir(join(dir, 'projects'));
    const listing = await listFolders(undefined, { platform: 'linux', home: dir });
    expect(listing.path).toBe(dir);
    expect(listing.home).toBe(dir);
    expect(listing.parent).toBe(join(dir, '..').replace(/\/$/, ''));
    expect(listing.entries.map((e) => e.name)).toEqual(['projects']);
  });

  it('has no parent at the file-system root', async () => {
    const listing = await listFolders('/', { platform: 'linux', home: dir });
    expect(listing.path).toBe('/');
    expect(listing.parent).toBeUndefined();
    expect(listing.entries.length).toBeGreaterThan(0);
  });

  it('normalizes the path it lists (trailing and doubled slashes)', async () => {
    await mkdir(join(dir, 'a'));
    const listing = await listFolders(`${dir}//a/`, { platform: 'linux', home: dir });
    expect(listing.path).toBe(join(dir, 'a'));
    expect(listing.parent).toBe(dir);
  });

  it('follows links to folders and leaves out dangling links', async () => {
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'linked'));
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
    const listing = await listFolders(dir, { platform: 'linux', home: dir });
    expect(listing.entries.map((e) => e.name)).toEqual(['linked', 'real']);
  });

  it('caps the entries and says there are more', async () => {
    for (let i = 0; i < 7; i++) await mkdir(join(dir, `f${i}`));
    const listing = await listFolders(dir, { platform: 'linux', home: dir, maxEntries: 5 });
    expect(listing.entries.map((e) => e.name)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(listing.truncated).toBe(true);
    expect(MAX_FOLDER_ENTRIES).toBe(500);
  });

  it('says NOT_FOUND for a folder that does not exist', async () => {
    const error = await failure(listFolders(join(dir, 'gone'), { platform: 'linux', home: dir }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain(join(dir, 'gone'));
    expect(error.path).toBe('path');
  });

  it('says INVALID_INPUT for a file', async () => {
    await writeFile(join(dir, 'notes.txt'), 'x');
    const error = await failure(listFolders(join(dir, 'notes.txt'), { platform: 'linux', home: dir }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/is a file, not a folder/);
  });

  it('says NOT_FOUND when part of the path is a file', async () => {
    await writeFile(join(dir, 'notes.txt'), 'x');
    const error = await failure(listFolders(join(dir, 'notes.txt', 'inner'), { platform: 'linux', home: dir }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toMatch(/part of that path is a file/);
  });

  it.each([
    ['a relative path', 'projects/berth', /relative path/],
    ['a .. segment', '/home/me/../other', /'\.\.'/],
  ])('refuses %s', async (_label, path, message) => {
    const error = await failure(listFolders(path, { platform: 'linux', home: dir }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(message);
    expect(error.path).toBe('path');
  });

  // root can list any folder, so the permission case cannot be exercised as root (CI runs as root: not covered there).
  it.skipIf(process.getuid?.() === 0)('flags a folder it may not list, and refuses to list it', async () => {
    await mkdir(join(dir, 'locked'));
    await mkdir(join(dir, 'open'));
    await chmod(join(dir, 'locked'), 0o000);
    const listing = await listFolders(dir, { platform: 'linux', home: dir });
    expect(listing.entries).toEqual([
      { name: 'locked', path: join(dir, 'locked'), readable: false },
      { name: 'open', path: join(dir, 'open'), readable: true },
    ]);
    const error = await failure(listFolders(join(dir, 'locked'), { platform: 'linux', home: dir }));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toMatch(/permission denied/);
  });
});
