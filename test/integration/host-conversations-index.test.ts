import { chmod, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../shared/domain/log';
import type { Conversation, ConversationSummary } from '../../shared/domain/chat';
import type { SettingsView } from '../../shared/contract/settings';
import { hostPerTest, type HostHarness } from './host-harness';

/**
 * The conversations index through the whole host, as a person's restarts use it:
 * the start-time privacy walk's lstat of each file is what the index is checked
 * against (app/host.ts), so a file changed while Berth was closed must still show
 * changed in the first chat.list, and a clean restart must find nothing to redo.
 */

const berth = hostPerTest('berth-conversations-index-');

/** The host-wide log lines about the index this start wrote (rebuilt, out of date, not written). */
async function indexNotices(harness: HostHarness): Promise<string[]> {
  const { entries } = await harness.call<{ entries: LogEntry[] }>('logs.query', {
    sources: ['host'],
    text: 'conversations index',
  });
  return entries.map((entry) => entry.text);
}

const titlesOf = (list: ConversationSummary[]): string[] => list.map((summary) => summary.title).sort();

describe('the conversations index across restarts of the host', () => {
  it('notices a file edited in place, one added, one removed and one left readable by others while Berth was closed', async () => {
    const configDir = berth.dir;
    const conversationsDir = join(configDir, 'conversations');
    const fileOf = (id: string): string => join(conversationsDir, `${id}.json`);
    const first = await berth.start();
    const settings = await first.call<SettingsView>('settings.get', {});
    const model = settings.models.at(-1)?.id;
    const ids: string[] = [];
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta']) {
      const created = await first.call<Conversation>('chat.create', { model });
      await first.call('chat.rename', { id: created.id, title });
      ids.push(created.id);
    }
    await first.host.shutdown();

    // A clean restart reads no file: the index describes every one exactly.
    const clean = await berth.start();
    expect(titlesOf(await clean.call<ConversationSummary[]>('chat.list', {}))).toEqual([
      'Alpha',
      'Bravo',
      'Charlie',
      'Delta',
    ]);
    expect(await indexNotices(clean)).toEqual([]);
    await clean.host.shutdown();

    // While Berth is closed: Alpha edited in place (same inode), Echo copied in, Charlie removed, Delta made readable by others.
    const inodeBefore = (await stat(fileOf(ids[0]!))).ino;
    const alpha = JSON.parse(await readFile(fileOf(ids[0]!), 'utf8')) as Conversation;
    await writeFile(fileOf(ids[0]!), JSON.stringify({ ...alpha, title: 'Alpha, edited by hand' }));
    expect((await stat(fileOf(ids[0]!))).ino).toBe(inodeBefore);
    const echoId = '0b2c5a8e-1111-4222-8333-944445555666';
    await writeFile(fileOf(echoId), JSON.stringify({ ...alpha, id: echoId, title: 'Echo' }));
    await unlink(fileOf(ids[2]!));
    await chmod(fileOf(ids[3]!), 0o644);

    const reopened = await berth.start();
    expect(titlesOf(await reopened.call<ConversationSummary[]>('chat.list', {}))).toEqual([
      'Alpha, edited by hand',
      'Bravo',
      'Delta',
      'Echo',
    ]);
    expect(await indexNotices(reopened)).toEqual([
      expect.stringMatching(/out of date \(2 files new or changed outside Berth, 1 gone\)/),
    ]);
    if (process.platform !== 'win32') expect((await stat(fileOf(ids[3]!))).mode & 0o777).toBe(0o600);
    await reopened.host.shutdown();

    // The repaired index is what the next start uses.
    const after = await berth.start();
    expect(titlesOf(await after.call<ConversationSummary[]>('chat.list', {}))).toEqual([
      'Alpha, edited by hand',
      'Bravo',
      'Delta',
      'Echo',
    ]);
    expect(await indexNotices(after)).toEqual([]);
  });
});
