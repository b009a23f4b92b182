import { describe, expect, it } from 'vitest';
import { fail, ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { resourceKey } from './resources-slice';

const URI = 'demo://resource/static/document/architecture.md';

describe('resources slice', () => {
  it('counts updates from the host until the resource is read again', async () => {
    const transport = createFakeTransport({
      'resources.read': async ({ uri }) => ok({ contents: [{ kind: 'text' as const, uri, text: 'new' }] }),
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    transport.emit('resources.updated', { server: 'everything', uri: URI });
    transport.emit('resources.updated', { server: 'everything', uri: URI });
    expect(store.getState().resourceUpdates).toEqual({ [resourceKey('everything', URI)]: 2 });

    const read = await store.getState().readResource({ server: 'everything', uri: URI });
    expect(read.ok).toBe(true);
    expect(store.getState().resourceUpdates).toEqual({});
  });

  it('keeps the marks when a read fails', async () => {
    const transport = createFakeTransport({
      'resources.read': async () => fail('NOT_READY', "server 'everything' is stopped"),
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    transport.emit('resources.updated', { server: 'everything', uri: URI });
    await store.getState().readResource({ server: 'everything', uri: URI });
    expect(store.getState().resourceUpdates[resourceKey('everything', URI)]).toBe(1);
  });

  it('takes the subscribed list from the host, and re-asks it when a change fails', async () => {
    let subscribed: string[] = [URI];
    const transport = createFakeTransport({
      'resources.subscribe': async ({ uri }) => {
        subscribed = [...subscribed, uri];
        return ok({ subscribed });
      },
      'resources.unsubscribe': async () => fail('SERVER_ERROR', 'server went away'),
      'resources.subscriptions': async () => ok({ subscribed }),
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await store.getState().setResourceSubscribed('everything', 'demo://b', true);
    expect(store.getState().resourceSubscriptions).toEqual({ everything: [URI, 'demo://b'] });

    subscribed = [URI];
    const result = await store.getState().setResourceSubscribed('everything', 'demo://b', false);
    expect(result.ok).toBe(false);
    expect(store.getState().resourceSubscriptions).toEqual({ everything: [URI] });
  });

  it('bumps the list version on listChanged and opens a resource from elsewhere on the servers view', () => {
    const transport = createFakeTransport();
    const store = createBerthStore(transport);
    connectStore(store, transport);
    store.getState().showView('chat');
    transport.emit('resources.listChanged', { server: 'everything' });
    expect(store.getState().resourceListVersions).toEqual({ everything: 1 });

    store.getState().openResourceInBrowser('everything', URI);
    expect(store.getState()).toMatchObject({
      view: 'servers',
      selectedServer: 'everything',
      resourceFocus: { server: 'everything', uri: URI },
    });
    store.getState().clearResourceFocus();
    expect(store.getState().resourceFocus).toBeUndefined();
  });
});
