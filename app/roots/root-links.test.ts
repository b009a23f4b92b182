import { mkdir, mkdtemp, realpath, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RootsChange } from '../../shared/domain/roots';
import { HostError } from '../../shared/result';
import { RootsConsent } from './roots-consent';
import { createRootsListHandler } from './roots-handler';
import { RootsStore } from './roots-store';

/** Roots reached through symbolic links, and folders too broad to share without a clear yes. */

let dir: string;
let changes: RootsChange[];

beforeEach(async () => {
  // Real path up front: the temp folder itself may sit behind a link (macOS /var → /private/var).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'berth-root-links-')));
  changes = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folder = async (name: string) => {
  const path = join(dir, name);
  await mkdir(path, { recursive: true });
  return path;
};

async function open(home = join(dir, 'elsewhere-home')) {
  const store = await RootsStore.open({
    stateDir: join(dir, 'state'),
    warn: (text) => expect.fail(text),
    platform: 'linux',
    home,
  });
  store.onChange((change) => changes.push(change));
  const consent = new RootsConsent(store);
  const list = createRootsListHandler({
    store,
    consent,
    ask: async (_server, roots) => ({ allow: roots.map((r) => r.id) }),
    platform: 'linux',
  });
  return { store, list };
}

describe('a root picked through a symbolic link', () => {
  it('is stored and handed out as its real path, and keeps the picked path beside it', async () => {
    const real = await folder('projects/alpha');
    const link = join(dir, 'alpha-link');
    await symlink(real, link);
    const { store, list } = await open();
    const root = await store.add(link);
    expect(root).toMatchObject({ path: real, linkPath: link, name: 'alpha-link', missing: false });
    expect((await list('fs')).roots).toEqual([{ uri: `file://${real}`, name: 'alpha-link' }]);
    // The same folder by its real path is the same root.
    await expect(store.add(real)).rejects.toMatchObject({ code: 'CONFLICT' });
    // A plain folder keeps no link path.
    expect(await store.add(await folder('plain'))).not.toHaveProperty('linkPath');
  });

  it('is held back from servers once the link leads elsewhere (at start and at roots/list) until the person confirms the new folder', async () => {
    const first = await folder('first');
    const second = await folder('second');
    const link = join(dir, 'current');
    await symlink(first, link);
    const { store, list } = await open();
    const root = await store.add(link);
    expect((await list('fs')).roots.map((r) => r.uri)).toEqual([`file://${first}`]);

    await unlink(link);
    await symlink(second, link);
    changes = [];
    // roots/list looks again: the server no longer gets it, and is told its roots changed.
    expect((await list('fs')).roots).toEqual([]);
    expect(store.get(root.id)).toMatchObject({
      path: first,
      missing: true,
      retarget: second,
      problem: `${link} now leads to ${second}, not to ${first} that you shared`,
      problemMessage: { code: 'root-errors.link-moved', params: { picked: link, real: second, shared: first } },
    });
    expect(changes.at(-1)?.servers).toContain('fs');

    // At start-up too: a fresh store reads the same verdict from disk.
    const reopened = await open();
    expect(reopened.store.get(root.id)).toMatchObject({ missing: true, retarget: second });
    expect((await reopened.list('fs')).roots).toEqual([]);

    changes = [];
    const confirmed = await reopened.store.confirmTarget(root.id);
    expect(confirmed).toMatchObject({ id: root.id, path: second, linkPath: link, missing: false });
    expect(confirmed).not.toHaveProperty('retarget');
    expect(changes.at(-1)?.servers).toContain('fs');
    expect((await reopened.list('fs')).roots.map((r) => r.uri)).toEqual([`file://${second}`]);
  });

  it('a link that points nowhere now is flagged as missing, not retargeted', async () => {
    const target = await folder('gone');
    const link = join(dir, 'dangling');
    await symlink(target, link);
    const { store } = await open();
    const root = await store.add(link);
    await rm(target, { recursive: true });
    await store.check();
    expect(store.get(root.id)).toMatchObject({ missing: true, problem: `the folder ${link} does not exist` });
    expect(store.get(root.id)).not.toHaveProperty('retarget');
  });
});

describe('sharing a folder as broad as / or the home folder', () => {
  it('needs an explicit confirmation, with a warning that says what it gives away', async () => {
    const home = await folder('home/me');
    const { store } = await open(home);
    const refused = await store.add(home).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostError);
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', path: 'confirmBroad' });
    expect((refused as HostError).message).toBe(
      `${home} is your home folder: every server you allow would see and could change all of your files in it, not just one project's. Share it only if you mean to.`,
    );
    // The renderer words the warning from its code in the person's language.
    expect((refused as HostError).hostMessage).toEqual({
      code: 'root-errors.broad-folder',
      params: { path: home, scope: 'home', home },
    });
    expect(store.list()).toEqual([]);

    // A folder holding the home folder, and the file-system root, too.
    await expect(store.add(join(dir, 'home'))).rejects.toMatchObject({
      path: 'confirmBroad',
      message: expect.stringContaining(`a folder that holds your home folder (${home})`),
      hostMessage: { params: { path: join(dir, 'home'), scope: 'holdsHome', home } },
    });
    await expect(store.add('/')).rejects.toMatchObject({
      path: 'confirmBroad',
      message: expect.stringContaining('/ is the whole file system'),
      hostMessage: { params: { scope: 'fileSystem' } },
    });
    // Through a link it is the real folder that counts.
    const link = join(dir, 'innocent-name');
    await symlink(home, link);
    await expect(store.add(link)).rejects.toMatchObject({ path: 'confirmBroad' });

    expect(await store.add(home, undefined, { confirmBroad: true })).toMatchObject({ path: home, missing: false });
    // A project inside the home folder is an ordinary root.
    expect(await store.add(await folder('home/me/project'))).toMatchObject({ missing: false });
  });

  it('a link retargeted to the home folder needs the same confirmation', async () => {
    const home = await folder('home/me');
    const work = await folder('work');
    const link = join(dir, 'link');
    await symlink(work, link);
    const { store } = await open(home);
    const root = await store.add(link);
    await unlink(link);
    await symlink(home, link);
    await store.check();
    await expect(store.confirmTarget(root.id)).rejects.toMatchObject({ path: 'confirmBroad' });
    expect(await store.confirmTarget(root.id, { confirmBroad: true })).toMatchObject({ path: home, missing: false });
  });
});
