import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEEN_EVENT_IDS, type EventSubscription } from '../../shared/domain/mcp-events';
import { tempDir } from '../servers/test-support';
import { SubscriptionStore } from './subscription-store';

let dir: { path: string; cleanup: () => Promise<void> };
beforeEach(async () => (dir = await tempDir('berth-subscriptions-')));
afterEach(async () => dir.cleanup());

const subscription: EventSubscription = {
  id: 'sub-1',
  server: 'ci',
  event: 'build.finished',
  arguments: { project: 'berth' },
  action: 'inbox',
  paused: false,
  createdAt: 1,
  cursor: null,
  seen: [],
};

describe('SubscriptionStore', () => {
  it('saves the cursor and the newest ids seen, and reads them back after a restart', async () => {
    const store = new SubscriptionStore(dir.path, () => 42);
    await store.load();
    await store.add(subscription);
    const ids = Array.from({ length: SEEN_EVENT_IDS + 20 }, (_, index) => `evt-${index}`);
    await store.advance('sub-1', { cursor: 'seq:520', seen: ids, truncated: true });
    // No cursor in a batch keeps the one saved.
    await store.advance('sub-1', { cursor: undefined, seen: ids, truncated: false });
    const again = new SubscriptionStore(dir.path);
    await again.load();
    const saved = again.get('sub-1');
    expect(saved).toMatchObject({ cursor: 'seq:520', truncatedAt: 42 });
    expect(saved?.seen).toHaveLength(SEEN_EVENT_IDS);
    expect(saved?.seen.at(-1)).toBe(`evt-${SEEN_EVENT_IDS + 19}`);
    await again.remove('sub-1');
    expect(JSON.parse(await readFile(again.filePath, 'utf8'))).toEqual({ version: 1, subscriptions: [] });
  });

  it('moves an unreadable file aside and says so, instead of overwriting it', async () => {
    await mkdir(dir.path, { recursive: true });
    await writeFile(join(dir.path, 'event-subscriptions.json'), '{"version":1,"subscriptions":[{"id":');
    const store = new SubscriptionStore(dir.path, () => 7);
    await store.load();
    expect(store.list()).toEqual([]);
    expect(store.problem).toMatch(/moved it to .*event-subscriptions\.json\.corrupt-7/);
    expect(await readdir(dir.path)).toContain('event-subscriptions.json.corrupt-7');
  });
});
