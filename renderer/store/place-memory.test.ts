import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../shared/result';
import { createFakeTransport, serverState } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { PLACE_STORAGE_KEY, readPlace, rememberPlace } from './place-memory';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

const summary = (id: string, updatedAt: number) => ({
  id,
  title: id,
  createdAt: 1,
  updatedAt,
  model: 'claude-a',
  messageCount: 1,
});

describe('where the person was, across a reload', () => {
  it('keeps the view, the server, the conversation and the logs’ server as they change', () => {
    const storage = memoryStorage();
    const store = createBerthStore(createFakeTransport({}));
    rememberPlace(store, storage);
    expect(storage.items.size).toBe(0);
    store.getState().showLogsFor('everything');
    expect(JSON.parse(storage.items.get(PLACE_STORAGE_KEY)!)).toEqual({ view: 'logs', logServer: 'everything' });
    store.setState({ activeConversationId: 'c2' });
    store.getState().showView('chat');
    expect(readPlace(storage)).toEqual({ view: 'chat', logServer: 'everything', activeConversationId: 'c2' });
  });

  it('a reload opens that place: the same conversation, not the newest one, and not the Servers view', async () => {
    const storage = memoryStorage({
      [PLACE_STORAGE_KEY]: JSON.stringify({ view: 'chat', activeConversationId: 'older', selectedServer: 'a' }),
    });
    const transport = createFakeTransport({
      'servers.list': () => ok([serverState('a', { status: 'ready' })]),
      'chat.list': () => ok([summary('newest', 9), summary('older', 5)]),
    });
    const store = createBerthStore(transport);
    rememberPlace(store, storage);
    connectStore(store, transport);
    await vi.waitFor(() => expect(store.getState().conversationsLoaded).toBe(true));
    expect(store.getState()).toMatchObject({ view: 'chat', activeConversationId: 'older', selectedServer: 'a' });
  });

  it('a conversation deleted meanwhile gives way to the newest one', async () => {
    const storage = memoryStorage({
      [PLACE_STORAGE_KEY]: JSON.stringify({ view: 'chat', activeConversationId: 'gone' }),
    });
    const transport = createFakeTransport({ 'chat.list': () => ok([summary('newest', 9)]) });
    const store = createBerthStore(transport);
    rememberPlace(store, storage);
    connectStore(store, transport);
    await vi.waitFor(() => expect(store.getState().conversationsLoaded).toBe(true));
    expect(store.getState()).toMatchObject({ view: 'chat', activeConversationId: 'newest' });
  });

  it('ignores what is not a place of ours, and storage that throws', () => {
    for (const raw of [
      'not json',
      '42',
      'null',
      '{"view":"admin"}',
      JSON.stringify({ view: 'chat', activeConversationId: 7, selectedServer: 'x'.repeat(600) }),
    ]) {
      const place = readPlace(memoryStorage({ [PLACE_STORAGE_KEY]: raw }));
      if (raw.includes('"view":"chat"')) expect(place).toEqual({ view: 'chat' });
      else expect(place).toBeUndefined();
    }
    const broken = {
      getItem: () => {
        throw new Error('disabled');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createBerthStore(createFakeTransport({}));
    rememberPlace(store, broken);
    store.getState().showView('tasks');
    expect(store.getState().view).toBe('tasks');
    expect(errors).toHaveBeenCalledWith('Berth: could not remember the current view', expect.any(Error));
    errors.mockRestore();
  });
});
