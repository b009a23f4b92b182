import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RootsChange } from '../../shared/domain/roots';
import { RootsStore } from './roots-store';
import type { RootsStoreOptions } from './roots-store';

let dir: string;
let stateDir: string;
let warnings: string[];
let changes: RootsChange[];
let ids: number;

beforeEach(async () => {
  // Real path: roots are stored as real paths, and the temp folder may sit behind a link (macOS /var).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'berth-roots-')));
  stateDir = join(dir, 'state');
  warnings = [];
  changes = [];
  ids = 0;
});

afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

const open = async (extra: Partial<RootsStoreOptions> = {}) => {
  const store = await RootsStore.open({
    stateDir,
    warn: (text) => warnings.push(text),
    platform: 'linux',
    now: () => 1000,
    newId: () => `r${++ids}`,
    ...extra,
  });
  store.onChange((change) => changes.push(change));
  return store;
};

const folder = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return path;
};

describe('RootsStore.add', () => {
  it('adds a folder whose name has spaces and unicode, and keeps it across a restart', async () => {
    const path = await folder('My Café 日本');
    const store = await open();
    const root = await store.add(`${path}/`);
    expect(root).toEqual({ id: 'r1', path, name: 'My Café 日本', addedAt: 1000, missing: false });
    const named = await store.add(await folder('other'), '  Work  ');
    expect(named.name).toBe('Work');
    const saved: unknown = JSON.parse(await readFile(join(stateDir, 'roots.json'), 'utf8'));
    expect(saved).toMatchObject({
      version: 1,
      roots: [
        { id: 'r1', path },
        { id: 'r2', name: 'Work' },
      ],
    });
    expect((await open()).list().map((r) => r.name)).toEqual(['My Café 日本', 'Work']);
  });

  it('gives a clear error for a missing folder, a file, a relative path, traversal and a duplicate', async () => {
    const store = await open();
    await writeFile(join(dir, 'notes.txt'), 'x');
    await expect(store.add(join(dir, 'nope'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('does not exist'),
    });
    await expect(store.add(join(dir, 'notes.txt'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is a file, not a folder'),
    });
    await expect(store.add('relative/dir')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('relative path'),
    });
    await expect(store.add(`${dir}/a/../b`)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining("'..'"),
    });
    await expect(store.add('C:\\Users\\me')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('Windows path'),
    });
    const path = await folder('p');
    await store.add(path, 'P');
    await expect(store.add(`${path}//`)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining("named 'P'"),
    });
    await expect(store.add(await folder('q'), '   ')).rejects.toMatchObject({ code: 'INVALID_INPUT', path: 'name' });
    expect(store.list()).toHaveLength(1);
  });

  // root can read anything, so the permission check cannot be exercised as root.
  it.skipIf(process.getuid?.() === 0)('refuses a folder that cannot be read', async () => {
    const path = await folder('locked');
    await chmod(path, 0o000);
    const store = await open();
    await expect(store.add(path)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('cannot be read'),
    });
    await chmod(path, 0o755);
  });
});

describe('RootsStore exposure and changes', () => {
  it('shows every root by default and only the chosen ones after setExposure', async () => {
    const store = await open({ knownServers: () => ['fs', 'git'] });
    const a = await store.add(await folder('a'));
    const b = await store.add(await folder('b'));
    expect(store.exposure('fs')).toBe('all');
    await store.setExposure('git', [b.id]);
    expect(store.rootsFor('fs').map((r) => r.id)).toEqual([a.id, b.id]);
    expect(store.rootsFor('git').map((r) => r.id)).toEqual([b.id]);
    await expect(store.setExposure('git', ['nope'])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await open()).exposure('git')).toEqual([b.id]);
    await store.setExposure('git', 'all');
    expect(store.exposure('git')).toBe('all');
  });

  it('tells listeners exactly which servers see a different set', async () => {
    const store = await open({ knownServers: () => ['fs', 'git'] });
    const a = await store.add(await folder('a'));
    expect(changes.at(-1)?.servers).toEqual(['fs', 'git']);
    await store.setExposure('git', [a.id]);
    expect(changes.at(-1)?.servers).toEqual([]);
    const b = await store.add(await folder('b'));
    expect(changes.at(-1)?.servers).toEqual(['fs']);
    await store.rename(b.id, 'Bee');
    expect(changes.at(-1)?.servers).toEqual(['fs']);
    await store.rename(a.id, 'Ay');
    expect(changes.at(-1)?.servers).toEqual(['fs', 'git']);
    await store.setExposure('git', [a.id, b.id]);
    expect(changes.at(-1)?.servers).toEqual(['git']);
    await store.remove(a.id);
    expect(changes.at(-1)?.servers).toEqual(['fs', 'git']);
    expect(store.exposure('git')).toEqual([b.id]);
    expect(changes.at(-1)?.roots.map((r) => r.name)).toEqual(['Bee']);
  });

  it('counts a server that asked for its roots even if it is not configured', async () => {
    const store = await open();
    store.rootsFor('adhoc');
    await store.add(await folder('a'));
    expect(changes.at(-1)?.servers).toEqual(['adhoc']);
  });

  it('forgets a removed server, saving only when it had something stored', async () => {
    const store = await open({ knownServers: () => ['fs'] });
    const a = await store.add(await folder('a'));
    await store.setExposure('git', [a.id]);
    await store.recordConsent('git', { allowed: [a.id], denied: [] });
    const before = changes.length;
    await store.forgetServer('never-stored');
    expect(changes).toHaveLength(before);
    await store.forgetServer('git');
    await store.flush();
    const saved = JSON.parse(await readFile(join(stateDir, 'roots.json'), 'utf8')) as {
      exposure: object;
      consent: object;
    };
    expect(saved.exposure).toEqual({});
    expect(saved.consent).toEqual({});
    expect(store.exposure('git')).toBe('all');
    expect(store.consentFor('git')).toEqual({ allowed: [], denied: [] });
  });

  it('restores a removed root with its id, place, exposure and answers, and tells the servers', async () => {
    const store = await open({ knownServers: () => ['fs', 'git'] });
    const a = await store.add(await folder('a'));
    const b = await store.add(await folder('b'));
    await store.setExposure('git', [a.id, b.id]);
    await store.recordConsent('git', { allowed: [a.id], denied: [b.id] });
    await store.recordConsent('fs', { allowed: [b.id], denied: [a.id] });
    await store.remove(a.id);
    expect(store.exposure('git')).toEqual([b.id]);

    const restored = await store.restore(a.id);
    expect(restored).toMatchObject({ id: a.id, name: 'a', missing: false });
    expect(store.list().map((r) => r.id)).toEqual([a.id, b.id]);
    expect(store.exposure('git')).toEqual([b.id, a.id]);
    expect(store.consentFor('git')).toEqual({ allowed: [a.id], denied: [b.id] });
    expect(store.consentFor('fs')).toEqual({ allowed: [b.id], denied: [a.id] });
    expect(changes.at(-1)?.servers).toEqual(['fs', 'git']);
    // Saved, and only once: a second restore has nothing to bring back.
    expect((await open()).consentFor('git')).toEqual({ allowed: [a.id], denied: [b.id] });
    await expect(store.restore(a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('restore refuses a path added again meanwhile, and flags a folder deleted meanwhile', async () => {
    const store = await open();
    const pathA = await folder('a');
    const a = await store.add(pathA);
    await store.remove(a.id);
    const again = await store.add(pathA);
    await expect(store.restore(a.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: `${pathA} is a root again already, named 'a'`,
      hostMessage: { code: 'root-errors.root-again', params: { path: pathA, name: 'a' } },
    });
    await store.remove(again.id);
    await rm(pathA, { recursive: true });
    expect(await store.restore(a.id)).toMatchObject({ id: a.id, missing: true });
  });

  it('rename and remove of an unknown id fail with NOT_FOUND', async () => {
    const store = await open();
    await expect(store.rename('x', 'y')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(store.remove('x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses with a code the renderer words: a restore of a root never removed, exposure for no server, a bad path', async () => {
    const store = await open();
    await expect(store.restore('x')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: "root 'x' cannot be restored: it was not removed since Berth started",
      hostMessage: { code: 'root-errors.not-removed', params: { id: 'x' } },
    });
    await expect(store.setExposure('', 'all')).rejects.toMatchObject({
      message: 'a server name is required',
      hostMessage: { code: 'root-errors.server-name-missing', params: {} },
    });
    await expect(store.add('project')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: "'project' is a relative path; give the folder's absolute path, starting with /",
      hostMessage: { code: 'root-errors.path-relative-posix', params: { path: 'project' } },
    });
  });
});

describe('RootsStore.check', () => {
  it('flags a root whose folder was removed, and clears the flag when it comes back', async () => {
    const path = await folder('gone soon');
    const store = await open({ knownServers: () => ['fs'] });
    const root = await store.add(path);
    await rm(path, { recursive: true });
    const checked = await store.check();
    expect(checked[0]).toMatchObject({
      id: root.id,
      missing: true,
      problem: `the folder ${path} does not exist`,
      problemMessage: { code: 'root-errors.folder-unusable', params: { path, problem: 'missing', detail: '' } },
    });
    expect(store.rootsFor('fs')[0]?.missing).toBe(true);
    expect(changes.at(-1)?.servers).toEqual(['fs']);
    const count = changes.length;
    await store.check();
    expect(changes).toHaveLength(count);
    await mkdir(path);
    expect((await store.check())[0]?.missing).toBe(false);
    expect(changes.at(-1)?.servers).toEqual(['fs']);
  });

  it('flags missing folders when opening, and a folder replaced by a file', async () => {
    const path = await folder('a');
    await (await open()).add(path);
    await rm(path, { recursive: true });
    expect((await open()).list()[0]?.missing).toBe(true);
    await writeFile(path, 'now a file');
    expect((await open()).list()[0]).toMatchObject({ missing: true, problem: expect.stringContaining('not a folder') });
  });
});

describe('RootsStore file handling', () => {
  it('moves a corrupt roots.json aside with a message and starts empty', async () => {
    await mkdir(stateDir, { recursive: true });
    await writeFile(join(stateDir, 'roots.json'), '{ not json');
    const store = await open();
    expect(store.list()).toEqual([]);
    expect(warnings[0]).toContain('not valid JSON');
    expect(await readFile(join(stateDir, 'roots.json.corrupt-1000'), 'utf8')).toBe('{ not json');
    await store.add(await folder('a'));
    expect(await readdir(stateDir)).toContain('roots.json');
  });

  it('moves a file of the wrong shape aside, naming the problem', async () => {
    await mkdir(stateDir, { recursive: true });
    await writeFile(
      join(stateDir, 'roots.json'),
      JSON.stringify({ version: 1, roots: [{ id: 'x' }], exposure: {}, consent: {} }),
    );
    await open();
    expect(warnings[0]).toMatch(/roots\.0\.path/);
  });

  it('leaves out, with a message, a hand-edited root whose path is not absolute', async () => {
    await mkdir(stateDir, { recursive: true });
    const good = await folder('good');
    const roots = [
      { id: 'a', path: 'relative', name: 'Bad', addedAt: 1 },
      { id: 'b', path: good, name: 'Good', addedAt: 1 },
    ];
    await writeFile(join(stateDir, 'roots.json'), JSON.stringify({ version: 1, roots, exposure: {}, consent: {} }));
    expect((await open()).list().map((r) => r.id)).toEqual(['b']);
    expect(warnings[0]).toContain("root 'Bad' was left out");
  });

  it('reports a failed save as IO_ERROR and keeps the previous state', async () => {
    await writeFile(stateDir, 'a file where the state folder should be');
    const store = await open();
    await expect(store.add(await folder('a'))).rejects.toMatchObject({
      code: 'IO_ERROR',
      hostMessage: {
        // The state folder could not be read, so Berth will not write over it.
        code: 'root-errors.save-blocked',
        params: { file: join(stateDir, 'roots.json'), detail: expect.stringContaining('ENOTDIR') },
      },
    });
    expect(store.list()).toEqual([]);
  });
});
