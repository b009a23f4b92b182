import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../shared/domain/chat';
import type { SettingsView } from '../../shared/contract/settings';
import { hostPerTest } from './host-harness';

/**
 * Berth's files are the person's alone. A config dir an
 * older Berth left world-readable is tightened at start, and everything the
 * host writes afterwards (config, secrets, settings, state, audit, logs,
 * conversations) is 0600 in 0700 folders, even under the loosest umask.
 */

const require = createRequire(import.meta.url);
const everythingEntry = join(
  require.resolve('@modelcontextprotocol/server-everything/package.json'),
  '..',
  'dist',
  'index.js',
);

const berth = hostPerTest('berth-private-host-');
let savedUmask: number;

beforeEach(() => {
  savedUmask = process.umask(0);
});

afterEach(() => {
  process.umask(savedUmask);
});

/** Every path under `root` (itself included) with its permission bits, as `relative path → octal`. */
async function modes(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = { '.': ((await stat(root)).mode & 0o777).toString(8) };
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found[relative(root, path)] = ((await stat(path)).mode & 0o777).toString(8);
  }
  return found;
}

describe.runIf(process.platform !== 'win32')('Berth files are private', () => {
  it('tightens what an older Berth left readable at start, and writes only 0600 files in 0700 folders', async () => {
    const configDir = join(berth.dir, 'berth');
    // What an older Berth (umask 022) left behind.
    await mkdir(join(configDir, 'state'), { recursive: true, mode: 0o755 });
    await mkdir(join(configDir, 'logs'), { mode: 0o755 });
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ mcpServers: {} }), { mode: 0o644 });
    await writeFile(join(configDir, 'state', 'audit.jsonl'), '', { mode: 0o644 });
    await writeFile(join(configDir, 'logs', 'berth.log'), 'old line\n', { mode: 0o644 });
    for (const path of ['', 'state', 'logs']) await chmod(join(configDir, path), 0o755);

    const harness = await berth.start({}, configDir);
    const before = await modes(configDir);
    expect(before).toMatchObject({
      '.': '700',
      state: '700',
      logs: '700',
      'config.json': '600',
      'state/audit.jsonl': '600',
      'logs/berth.log': '600',
    });

    // Now everything the host writes: config, a secret, settings, a running server's log and state, a conversation.
    await harness.call('servers.add', {
      name: 'everything',
      config: { command: process.execPath, args: [everythingEntry, 'stdio'] },
    });
    await harness.waitForEvent('servers.changed', (state) => state.name === 'everything' && state.status === 'ready');
    await harness.call('settings.setApiKey', { apiKey: 'sk-ant-test-0123456789' });
    const settings = await harness.call<SettingsView>('settings.get', {});
    await harness.call('settings.setDefaultModel', { model: settings.models.at(-1)?.id });
    const conversation = await harness.call<Conversation>('chat.create', {});
    await harness.host.shutdown();

    const after = await modes(configDir);
    for (const written of [
      'secrets.json',
      'settings.json',
      'logs/everything.log',
      `conversations/${conversation.id}.json`,
      'conversations/trash',
    ]) {
      expect(after, written).toHaveProperty([written]);
    }
    for (const [path, mode] of Object.entries(after)) {
      const isDir = (await stat(join(configDir, path))).isDirectory();
      expect(`${path} ${mode}`).toBe(`${path} ${isDir ? '700' : '600'}`);
    }
  });
});
