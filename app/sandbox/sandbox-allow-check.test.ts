import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../servers/test-support';
import {
  berthEntriesIn,
  domainAllowProblem,
  folderAllowProblem,
  folderRefusal,
  realPathOf,
} from './sandbox-allow-check';

describe('the host’s check of a folder to write (real paths on a real disk)', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let home: string;
  let configDir: string;

  beforeEach(async () => {
    dir = await tempDir('berth-allow-check-');
    home = join(dir.path, 'home', 'ann');
    configDir = join(home, '.config', 'berth');
    await mkdir(join(configDir, 'sandbox', 'other-1', 'data'), { recursive: true });
    await mkdir(join(home, 'Projects', 'site'), { recursive: true });
  });

  afterEach(async () => {
    await dir.cleanup();
  });

  it('accepts a normal project folder, and one not made yet', () => {
    expect(folderAllowProblem(join(home, 'Projects', 'site'), { home, configDir })).toBeUndefined();
    expect(folderAllowProblem(join(home, 'Projects', 'new', 'deep'), { home, configDir })).toBeUndefined();
  });

  it('refuses a folder that holds home, home itself and the config folder, saying what each holds', () => {
    expect(folderAllowProblem(join(dir.path, 'home'), { home, configDir })).toMatch(
      /never lets a sandboxed server write there: it holds your home folder/,
    );
    expect(folderAllowProblem(dir.path, { home, configDir })).toMatch(/it holds your home folder/);
    expect(folderAllowProblem(home, { home, configDir })).toMatch(/it is your home folder/);
    expect(folderAllowProblem(configDir, { home, configDir })).toMatch(/it is Berth's own settings folder/);
    expect(folderAllowProblem(join(home, '.config'), { home, configDir })).toMatch(
      /it holds Berth's own settings folder/,
    );
  });

  it('refuses a symlink that leads into the config folder, or to a folder holding home, naming where it leads', async () => {
    const intoConfig = join(home, 'Projects', 'innocent');
    await symlink(configDir, intoConfig);
    expect(folderAllowProblem(intoConfig, { home, configDir })).toBe(
      `Berth never lets a sandboxed server write there: ${intoConfig} leads to ${configDir}, and it is Berth's own settings folder (~/.config/berth): Berth's settings, secrets, conversations and every server's sandbox. Pick the one folder it needs, such as a project folder`,
    );
    // A folder not made yet under such a link is checked where it would really be.
    expect(folderAllowProblem(join(intoConfig, 'sandbox', 'other-1'), { home, configDir })).toMatch(
      /leads to .*inside Berth's own settings folder/,
    );
    // The host's refusal carries the same words as a code: the folder, where it leads, what that holds.
    expect(folderRefusal(intoConfig, { home, configDir })).toEqual({
      text: `${folderAllowProblem(intoConfig, { home, configDir })}: ${intoConfig}`,
      hostMessage: {
        code: 'sandbox-errors.folder-protected-link',
        params: { folder: intoConfig, real: configDir, kind: 'config', place: '~/.config/berth' },
      },
    });
    expect(folderRefusal('project', { home, configDir })).toEqual({
      text: 'Enter an absolute folder path (starting with /): project',
      hostMessage: { code: 'sandbox-errors.folder-entry', params: { folder: 'project', issue: 'notAbsolute' } },
    });
    const toParent = join(home, 'Projects', 'up');
    await symlink(join(dir.path, 'home'), toParent);
    expect(folderAllowProblem(toParent, { home, configDir })).toMatch(/leads to .*it holds your home folder/);
  });

  it('checks against home as it really is when home is reached through a link', async () => {
    const linkedHome = join(dir.path, 'home-link');
    await symlink(home, linkedHome);
    // Home given through its link, the folder as real: still home.
    expect(folderAllowProblem(home, { home: linkedHome, configDir: join(linkedHome, '.config', 'berth') })).toMatch(
      /it is your home folder/,
    );
    expect(
      folderAllowProblem(configDir, { home: linkedHome, configDir: join(linkedHome, '.config', 'berth') }),
    ).toMatch(/Berth's own settings folder/);
  });

  it('resolves the existing part of a path and keeps the rest as written', async () => {
    const link = join(dir.path, 'link');
    await symlink(join(home, 'Projects'), link);
    expect(realPathOf(join(link, 'site', 'not-yet'))).toBe(join(home, 'Projects', 'site', 'not-yet'));
    expect(realPathOf('/no/such/folder')).toBe('/no/such/folder');
  });

  it("lists Berth's files and the servers' folders, not links", async () => {
    await writeFile(join(configDir, 'sandbox.json'), '{}');
    await symlink('nowhere-1234', join(configDir, 'SingletonLock'));
    expect(berthEntriesIn(configDir).sort()).toEqual(
      [join(configDir, 'sandbox'), join(configDir, 'sandbox', 'other-1'), join(configDir, 'sandbox.json')].sort(),
    );
    expect(berthEntriesIn(join(dir.path, 'missing'))).toEqual([]);
  });
});

describe('the host’s check of a domain allowed with one click', () => {
  it('refuses this computer, private networks and metadata services, and lets public domains through', () => {
    for (const domain of [
      '127.0.0.1:8080',
      'localhost',
      '2130706433',
      '[::ffff:127.0.0.1]:80',
      '169.254.169.254',
      'metadata.google.internal',
    ]) {
      expect(domainAllowProblem(domain)?.text).toMatch(
        /never opens .* with one click: it is this computer, a private network or a cloud's metadata service.*add it by hand/,
      );
    }
    expect(domainAllowProblem('api.github.com')).toBeUndefined();
  });
});
