import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureConfig } from '../../app/servers/test-support';
import { placeholderLedgerFile } from '../../app/sandbox/sandbox-placeholders';
import type { SandboxDenial } from '../../shared/domain/sandbox';
import { sandboxSkipReason, startSandboxRig, waitUntil, type SandboxRig } from './sandbox-harness';

const skipReason = await sandboxSkipReason();
if (skipReason !== undefined) console.warn(`[sandbox-startup-files] skipped: ${skipReason}`);

/** Every entry under `folder` (but `skip`), with its kind, size and mode: what a placeholder would change. */
async function listing(folder: string, skip?: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(folder, { recursive: true })) {
    const path = join(folder, name);
    if (skip !== undefined && (path === skip || path.startsWith(`${skip}/`))) continue;
    const stat = await lstat(path);
    found.push(
      `${relative(folder, path)} ${stat.isDirectory() ? 'dir' : `${stat.size}b`} ${(stat.mode & 0o777).toString(8)}`,
    );
  }
  return found.sort();
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Starts the hostile fixture sandboxed with `root` as its root, and waits until it runs again with the root allowed. */
async function startBoxed(rig: SandboxRig, root: string, allowedFolders: string[] = []): Promise<void> {
  await rig.roots.store.add(root, undefined, { confirmBroad: true });
  await rig.setSandbox('boxed', { enabled: true, allowedFolders });
  await rig.sync({ boxed: fixtureConfig('hostile.mjs') });
  await waitUntil(
    () =>
      rig.logs
        .texts('boxed', 'host')
        .some((text) => text.includes('restarting it in the sandbox: the folders it was given changed')),
    20_000,
    'the restart for its roots',
  );
  await waitUntil(
    () =>
      rig.logs.texts('boxed', 'host').filter((text) => text.startsWith('runs in the sandbox')).length >= 2 &&
      rig.supervisor.get('boxed')?.status === 'ready',
    30_000,
    'boxed to run again',
  );
}

async function stopAll(rig: SandboxRig): Promise<void> {
  await rig.supervisor.sync({});
  await waitUntil(() => rig.supervisor.get('boxed') === undefined, 10_000, 'boxed to be gone');
}

describe.skipIf(skipReason !== undefined)('startup files in a sandbox given home', () => {
  let rig: SandboxRig | undefined;
  const cwd = process.cwd();

  afterEach(async () => {
    process.chdir(cwd);
    await rig?.close();
    rig = undefined;
  });

  it('keeps every dotfile of home closed, even absent ones, writes the rest, and leaves home and Berth’s folder as they were', async () => {
    rig = await startSandboxRig({ configInHome: true });
    const { home, configDir } = rig;
    for (const folder of [
      'Projects',
      'bin',
      '.config/git',
      '.config/nvim',
      '.config/environment.d',
      '.local/share/applications',
      '.myapp',
    ])
      await mkdir(join(home, folder), { recursive: true });
    await writeFile(join(home, 'notes.txt'), 'todo\n');
    const homeBefore = await listing(home, configDir);
    const configBefore = await listing(configDir);

    await startBoxed(rig, home, [join(home, '.myapp')]);
    const write = (path: string) => rig!.callJson('boxed', 'attempt', { action: 'write', path: join(home, path) });
    const refused = [
      '.bash_aliases',
      '.config/git/config',
      '.xsessionrc',
      '.config/environment.d/x.conf',
      '.config/nvim/init.vim',
      '.local/share/applications/x.desktop',
      '.some-new-dotfile',
      'new-in-home.txt',
      'bin/ls',
    ];
    for (const path of refused) {
      expect(await write(path), path).toMatchObject({ ok: false, detail: expect.stringMatching(/EROFS|read-only/i) });
      expect(await exists(join(home, path)), path).toBe(false);
    }
    // Each refusal is reported, and none offers a one-click "allow" that would open it.
    const denials = () =>
      rig!.events.filter((event) => event.topic === 'sandbox.denied').map((event) => event.payload as SandboxDenial);
    await waitUntil(
      () => refused.every((path) => denials().some((denial) => denial.target === join(home, path))),
      10_000,
      'the denials',
    );
    for (const path of refused)
      expect(denials().find((denial) => denial.target === join(home, path))?.fix, path).toBeUndefined();
    // A normal folder of home stays writable, and so does a dot-folder the person named exactly.
    expect(await write('Projects/x.txt')).toMatchObject({ ok: true });
    expect(await write('notes.txt')).toMatchObject({ ok: true });
    expect(await write('.myapp/state.json')).toMatchObject({ ok: true });

    await stopAll(rig);
    // Nothing the sandbox made stays: home holds only what the server was allowed to write.
    const rewritten = homeBefore.map((entry) => (entry.startsWith('notes.txt ') ? 'notes.txt 11b 644' : entry));
    expect(await listing(home, configDir)).toEqual(
      [...rewritten, 'Projects/x.txt 11b 644', '.myapp/state.json 11b 644'].sort(),
    );
    // Berth's folder holds only Berth's own new files: the server's folders, its state, the sandbox settings.
    const added = (await listing(configDir)).filter((entry) => !configBefore.includes(entry));
    expect(added.filter((entry) => !/^(sandbox|state)(\/| )|^sandbox\.json /.test(entry))).toEqual([]);
    for (const name of [
      'settings.json',
      'secrets.json',
      'config.json',
      'registries.json',
      'conversations',
      'logs',
      'bundles',
    ])
      expect(await exists(join(configDir, name)), name).toBe(false);
  }, 120_000);

  it('keeps them closed with the whole disk as a root, which stays writable around home', async () => {
    rig = await startSandboxRig();
    const { home } = rig;
    await mkdir(join(home, 'Projects'));
    await mkdir(join(rig.dir, 'beside'));
    await startBoxed(rig, '/');
    const write = (path: string) => rig!.callJson('boxed', 'attempt', { action: 'write', path });
    expect(await write(join(home, '.bash_aliases'))).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/EROFS|read-only/i),
    });
    // ~/.ssh is hidden behind an empty in-memory folder: a write there never reaches the disk.
    await write(join(home, '.ssh', 'authorized_keys'));
    expect(await exists(join(home, '.ssh', 'authorized_keys'))).toBe(false);
    expect(await write(join(home, 'Projects', 'x.txt'))).toMatchObject({ ok: true });
    // Beside home (another user's home, /srv…): writable, as `/` was given; directly in a folder above home, nothing new.
    expect(await write(join(rig.dir, 'beside', 'x.txt'))).toMatchObject({ ok: true });
    expect(await write(join(rig.dir, 'new-beside-home.txt'))).toMatchObject({ ok: false });
    expect(await exists(join(home, '.bash_aliases'))).toBe(false);
  }, 120_000);

  it('removes the placeholders the runtime had to make when their server stops, and keeps one the person wrote in', async () => {
    rig = await startSandboxRig();
    const site = join(rig.home, 'Projects', 'site');
    await mkdir(site, { recursive: true });
    await writeFile(join(site, 'index.html'), '<p>hi</p>\n');
    const before = await listing(site);
    // The runtime denies its own list of names in Berth's working directory: run from inside the root, they are absent there.
    process.chdir(site);

    await startBoxed(rig, site);
    const placeholder = await lstat(join(site, '.bashrc'));
    expect(placeholder.isFile() && placeholder.size === 0).toBe(true);
    expect((await lstat(join(site, '.claude'))).isDirectory()).toBe(true);
    expect(await rig.callJson('boxed', 'attempt', { action: 'write', path: join(site, '.bashrc') })).toMatchObject({
      ok: false,
    });
    // The person writes into one while the server runs: it is theirs now.
    await chmod(join(site, '.profile'), 0o644);
    await writeFile(join(site, '.profile'), 'export EDITOR=vi\n');

    await stopAll(rig);
    await waitUntil(async () => !(await exists(join(site, '.bashrc'))), 10_000, 'the placeholders to go');
    expect(await listing(site)).toEqual([...before, '.profile 17b 644'].sort());
    expect(await readFile(join(site, '.profile'), 'utf8')).toBe('export EDITOR=vi\n');
  }, 120_000);
});

describe('placeholders left by a Berth that crashed', () => {
  it('are swept at the next start, but only while they are still the empty placeholders that were recorded', async () => {
    let home = '';
    const rig = await startSandboxRig({
      async prepare(dirs) {
        home = dirs.home;
        const emptyReadOnly = async (path: string) => {
          await writeFile(path, '');
          await chmod(path, 0o444);
        };
        await emptyReadOnly(join(home, '.bash_profile'));
        await mkdir(join(home, '.config', 'systemd'), { recursive: true });
        // Written into by the person since.
        await writeFile(join(home, '.zshrc'), 'source ~/.aliases\n');
        // Empty and read-only, but not the file that was recorded (another inode): the person's.
        await emptyReadOnly(join(home, '.gitconfig'));
        const gitconfig = await lstat(join(home, '.gitconfig'));
        const record = {
          runs: {
            crashed: [
              { path: join(home, '.bash_profile') },
              { path: join(home, '.config', 'systemd') },
              { path: join(home, '.zshrc') },
              { path: join(home, '.gitconfig'), ino: gitconfig.ino + 1 },
            ],
          },
        };
        await mkdir(dirs.stateDir, { recursive: true });
        await writeFile(placeholderLedgerFile(dirs.stateDir), JSON.stringify(record));
      },
    });
    try {
      expect(await exists(join(home, '.bash_profile'))).toBe(false);
      expect(await exists(join(home, '.config', 'systemd'))).toBe(false);
      expect(await readFile(join(home, '.zshrc'), 'utf8')).toBe('source ~/.aliases\n');
      expect(await exists(join(home, '.gitconfig'))).toBe(true);
      expect(JSON.parse(await readFile(placeholderLedgerFile(join(rig.configDir, 'state')), 'utf8'))).toEqual({
        runs: {},
      });
    } finally {
      await rig.close();
    }
  });
});
