import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePrivateDir, makePrivateDirSync, tightenBerthFiles } from './private-files';

// Mode bits are POSIX; on Windows these functions do nothing.
const posix = process.platform !== 'win32';

let dir: string;
let savedUmask: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'berth-private-'));
  // The most permissive umask: whatever is private below is so because Berth made it so.
  savedUmask = process.umask(0);
});

afterEach(async () => {
  process.umask(savedUmask);
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe.runIf(posix)('makePrivateDir', () => {
  it('creates every missing directory 0700 whatever the umask, and leaves existing ones alone', async () => {
    await mkdir(join(dir, 'existing'), { mode: 0o755 });
    await makePrivateDir(join(dir, 'existing', 'a', 'b'));
    expect(await modeOf(join(dir, 'existing'))).toBe(0o755);
    expect(await modeOf(join(dir, 'existing', 'a'))).toBe(0o700);
    expect(await modeOf(join(dir, 'existing', 'a', 'b'))).toBe(0o700);

    makePrivateDirSync(join(dir, 'existing', 'sync', 'c'));
    expect(await modeOf(join(dir, 'existing', 'sync'))).toBe(0o700);
    expect(await modeOf(join(dir, 'existing', 'sync', 'c'))).toBe(0o700);

    // Already there: not touched (it may not be Berth's).
    await chmod(join(dir, 'existing', 'a', 'b'), 0o750);
    await makePrivateDir(join(dir, 'existing', 'a', 'b'));
    expect(await modeOf(join(dir, 'existing', 'a', 'b'))).toBe(0o750);
  });
});

describe.runIf(posix)('tightenBerthFiles', () => {
  it("takes group and other access away from an older Berth's files, keeping the owner's bits", async () => {
    const config = join(dir, 'berth');
    const layout: Array<[string, 'dir' | 'file', number]> = [
      ['', 'dir', 0o755],
      ['config.json', 'file', 0o644],
      ['secrets.json', 'file', 0o664],
      ['settings.json', 'file', 0o666],
      ['read-only.json', 'file', 0o444],
      ['state', 'dir', 0o755],
      ['state/policies.json', 'file', 0o644],
      ['state/audit.jsonl', 'file', 0o644],
      ['logs', 'dir', 0o775],
      ['logs/everything.log', 'file', 0o644],
      ['logs/everything.log.1', 'file', 0o644],
      ['conversations', 'dir', 0o755],
      ['conversations/trash', 'dir', 0o755],
      ['conversations/trash/c1.json', 'file', 0o644],
      ['browser-profile', 'dir', 0o755],
      ['browser-profile/Default', 'dir', 0o755],
      ['browser-profile/Default/Preferences', 'file', 0o644],
    ];
    for (const [path, kind, mode] of layout) {
      const full = join(config, path);
      if (kind === 'dir') await mkdir(full, { recursive: true });
      else await writeFile(full, '{}');
      await chmod(full, mode);
    }
    const outside = join(dir, 'elsewhere.json');
    await writeFile(outside, '{}');
    await chmod(outside, 0o644);
    await symlink(outside, join(config, 'state', 'linked.json'));

    const report = await tightenBerthFiles(config);

    expect(report.failures).toEqual([]);
    const expected: Record<string, number> = {
      '': 0o700,
      'config.json': 0o600,
      'secrets.json': 0o600,
      'settings.json': 0o600,
      'read-only.json': 0o400,
      state: 0o700,
      'state/policies.json': 0o600,
      'state/audit.jsonl': 0o600,
      logs: 0o700,
      'logs/everything.log': 0o600,
      'logs/everything.log.1': 0o600,
      conversations: 0o700,
      'conversations/trash': 0o700,
      'conversations/trash/c1.json': 0o600,
      // Another program's tree: closing its top directory keeps it private; its inside is its own business.
      'browser-profile': 0o700,
      'browser-profile/Default': 0o755,
      'browser-profile/Default/Preferences': 0o644,
    };
    const actual: Record<string, number> = {};
    for (const path of Object.keys(expected)) actual[path] = await modeOf(join(config, path));
    expect(actual).toEqual(expected);
    // A symbolic link's target is not Berth's to change.
    expect(await modeOf(outside)).toBe(0o644);
    expect(report.tightened).toHaveLength(15);

    // A second start finds nothing to do.
    expect(await tightenBerthFiles(config)).toEqual({ tightened: [], failures: [], identities: new Map() });
  });

  it('does nothing for a config dir that does not exist yet', async () => {
    expect(await tightenBerthFiles(join(dir, 'missing'))).toEqual({
      tightened: [],
      failures: [],
      identities: new Map(),
    });
  });

  it('hands back the identity of each regular file directly in the folder asked for, as before its chmod', async () => {
    const config = join(dir, 'berth');
    const conversations = join(config, 'conversations');
    await mkdir(join(conversations, 'trash'), { recursive: true });
    await writeFile(join(conversations, 'a.json'), '{"a":1}');
    await chmod(join(conversations, 'a.json'), 0o644);
    await writeFile(join(conversations, 'trash', 'deleted.json'), '{}');
    await writeFile(join(dir, 'outside.json'), '{"outside":true}');
    await symlink(join(dir, 'outside.json'), join(conversations, 'linked.json'));
    await writeFile(join(config, 'config.json'), '{}');

    // Given with a trailing separator: the same folder.
    const report = await tightenBerthFiles(config, { keepIdentitiesIn: `${conversations}/` });

    const a = await stat(join(conversations, 'a.json'));
    expect(report.tightened).toContain(join(conversations, 'a.json'));
    // Only a.json: not the folder's subfolder, nor what is inside it, nor a link (its target's identity is what matters), nor files elsewhere.
    expect(report.identities).toEqual(new Map([['a.json', { size: a.size, mtimeMs: a.mtimeMs, ino: a.ino }]]));
    expect((await tightenBerthFiles(config)).identities).toEqual(new Map());
  });
});
