import { chmod, lstat, mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../servers/test-support';
import {
  PlaceholderLedger,
  placeholderCandidates,
  placeholderLedgerFile,
  runtimeDeniedPaths,
} from './sandbox-placeholders';

describe('placeholderCandidates', () => {
  const present = new Set([
    '/',
    '/home',
    '/home/ann',
    '/home/ann/Projects',
    '/home/ann/Projects/site',
    '/home/ann/.ssh',
  ]);
  const exists = (path: string) => present.has(path);
  const policy = {
    allowWrite: ['/home/ann/Projects/site'],
    denyWrite: ['/home/ann/.bashrc', '/home/ann/.ssh', '/home/ann/Projects/site/.git/hooks'],
    denyRead: ['/home/ann/.aws'],
  };

  it('names the first missing component of each absent deny path inside a writable folder, and nothing outside one', () => {
    expect(
      placeholderCandidates(
        policy,
        [
          '/home/ann/Projects/site/.bashrc',
          '/home/ann/Projects/site/.claude/commands',
          '/home/ann/Projects/site/.claude/agents',
        ],
        exists,
      ).sort(),
    ).toEqual(['/home/ann/Projects/site/.bashrc', '/home/ann/Projects/site/.claude', '/home/ann/Projects/site/.git']);
  });

  it("resolves the runtime's own names against Berth's working directory", () => {
    expect(runtimeDeniedPaths('/home/ann/Projects/site')).toContain('/home/ann/Projects/site/.bash_profile');
    expect(runtimeDeniedPaths('/home/ann/Projects/site')).toContain('/home/ann/Projects/site/.git/hooks');
  });
});

describe('PlaceholderLedger', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const errors: string[] = [];

  beforeEach(async () => {
    ({ path: dir, cleanup } = await tempDir('berth-placeholders-'));
    errors.length = 0;
  });
  afterEach(async () => {
    await cleanup();
    expect(errors).toEqual([]);
  });

  /** What bubblewrap leaves: an empty file without write permission. */
  async function placeholder(path: string): Promise<void> {
    await writeFile(path, '');
    await chmod(path, 0o444);
  }

  const exists = (path: string) =>
    lstat(path).then(
      () => true,
      () => false,
    );

  it('removes what it recorded at the end of its run, and passes one another live run may be mounted on to that run', async () => {
    const site = join(dir, 'site');
    await mkdir(site);
    const ledger = new PlaceholderLedger(placeholderLedgerFile(join(dir, 'state')), (what, error) =>
      errors.push(`${what}: ${String(error)}`),
    );
    const policy = { allowWrite: [site], denyWrite: [join(site, '.bashrc')], denyRead: [] };
    ledger.begin('one', policy);
    // On disk before the spawn, so that a crash right after it still finds them.
    expect(JSON.parse(await readFile(placeholderLedgerFile(join(dir, 'state')), 'utf8'))).toMatchObject({
      runs: { one: [{ path: join(site, '.bashrc') }] },
    });
    await placeholder(join(site, '.bashrc'));
    ledger.started('one');

    expect(ledger.end('one', [{ key: 'two', allowWrite: [site] }])).toEqual([]);
    expect(await exists(join(site, '.bashrc'))).toBe(true);
    expect(ledger.end('two', [])).toEqual([join(site, '.bashrc')]);
    expect(await exists(join(site, '.bashrc'))).toBe(false);
  });

  it('records a placeholder where the runtime makes it: past a link on the way (writable folders come resolved)', async () => {
    const real = join(dir, 'real-site');
    await mkdir(real);
    await symlink(real, join(dir, 'site'));
    const ledger = new PlaceholderLedger(placeholderLedgerFile(join(dir, 'state')), (what, error) =>
      errors.push(`${what}: ${String(error)}`),
    );
    ledger.begin('one', { allowWrite: [real], denyWrite: [join(dir, 'site', '.bashrc')], denyRead: [] });
    await placeholder(join(real, '.bashrc'));
    expect(ledger.end('one', [])).toEqual([join(real, '.bashrc')]);
  });

  it('keeps a file the person put in its place or wrote into', async () => {
    const site = join(dir, 'site');
    await mkdir(site);
    const ledger = new PlaceholderLedger(placeholderLedgerFile(join(dir, 'state')), (what, error) =>
      errors.push(`${what}: ${String(error)}`),
    );
    ledger.begin('one', {
      allowWrite: [site],
      denyWrite: [join(site, '.profile'), join(site, '.zshrc')],
      denyRead: [],
    });
    await placeholder(join(site, '.profile'));
    await placeholder(join(site, '.zshrc'));
    ledger.started('one');
    await chmod(join(site, '.profile'), 0o644);
    await writeFile(join(site, '.profile'), 'export A=1\n');
    // Replaced by another empty read-only file: the same look, another inode.
    await writeFile(join(dir, 'other'), '');
    await chmod(join(dir, 'other'), 0o444);
    await rename(join(dir, 'other'), join(site, '.zshrc'));

    expect(ledger.end('one', [])).toEqual([]);
    expect(await readFile(join(site, '.profile'), 'utf8')).toBe('export A=1\n');
    expect(await exists(join(site, '.zshrc'))).toBe(true);
  });
});
