import { describe, expect, it } from 'vitest';
import type { RootsView } from '../../shared/contract/roots';
import type { RootView } from '../../shared/domain/roots';
import { fail, ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { shownToasts } from '../test-support/shown-toasts';

function root(id: string, overrides: Partial<RootView> = {}): RootView {
  return { id, path: `/work/${id}`, name: id, addedAt: 1, missing: false, ...overrides };
}

function view(roots: RootView[], extra: Partial<RootsView> = {}): RootsView {
  return { roots, exposure: {}, consent: {}, ...extra };
}

describe('roots slice', () => {
  it('fetches the roots on connect and follows roots.changed', async () => {
    const transport = createFakeTransport({ 'roots.list': () => ok(view([root('a')])) });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await Promise.resolve();
    expect(store.getState().rootsView?.roots.map((r) => r.id)).toEqual(['a']);

    transport.emit('roots.changed', view([root('a', { missing: true, problem: 'The folder was deleted' }), root('b')]));
    expect(store.getState().rootsView?.roots).toMatchObject([
      { id: 'a', missing: true, problem: 'The folder was deleted' },
      { id: 'b' },
    ]);
  });

  it('keeps the reason when the roots cannot be read', async () => {
    const transport = createFakeTransport({ 'roots.list': () => fail('INTERNAL', 'roots.json is not valid JSON') });
    const store = createBerthStore(transport);
    await store.getState().loadRoots();
    expect(store.getState().rootsView).toBeUndefined();
    expect(store.getState().rootsError?.message).toBe('roots.json is not valid JSON');
  });

  it('adds and renames at once, and returns failures for the form', async () => {
    const transport = createFakeTransport({
      'roots.list': () => ok(view([root('a')])),
      'roots.add': ({ path, name }) =>
        path === '/nope' ? fail('INVALID_INPUT', 'No folder at /nope') : ok(root('b', { path, name: name ?? 'b' })),
      'roots.rename': ({ id, name }) => ok(root(id, { name })),
    });
    const store = createBerthStore(transport);
    await store.getState().loadRoots();

    const bad = await store.getState().addRoot('/nope', '  ');
    expect(bad).toMatchObject({ ok: false, message: 'No folder at /nope' });
    // A blank name is not sent: the host then names the root after its folder.
    expect(transport.calls.at(-1)).toEqual({ method: 'roots.add', input: { path: '/nope' } });

    await store.getState().addRoot('/work/b', ' Project B ');
    expect(transport.calls.at(-1)?.input).toEqual({ path: '/work/b', name: 'Project B' });
    await store.getState().renameRoot('a', 'Alpha');
    expect(store.getState().rootsView?.roots.map((r) => r.name)).toEqual(['Alpha', 'Project B']);
  });

  it('removes with an Undo toast that restores the root (id, exposure and answers kept by the host)', async () => {
    const removed = root('a', { name: 'Alpha', path: '/work/alpha' });
    const transport = createFakeTransport({
      'roots.list': () => ok(view([removed])),
      'roots.remove': () => ok({ removed }),
      'roots.restore': ({ id }) => ok(root(id, { name: 'Alpha', path: '/work/alpha' })),
    });
    const store = createBerthStore(transport);
    await store.getState().loadRoots();
    await store.getState().removeRoot('a');
    expect(store.getState().rootsView?.roots).toEqual([]);
    const toast = shownToasts(store).at(-1);
    expect(toast?.title).toBe('Removed “Alpha”');

    toast?.action?.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transport.calls.at(-1)).toEqual({ method: 'roots.restore', input: { id: 'a' } });
    expect(store.getState().rootsView?.roots.map((r) => r.id)).toEqual(['a']);
  });

  it('Undo after Berth restarted (nothing to restore) adds the same folder back under its name', async () => {
    const removed = root('a', { name: 'Alpha', path: '/work/alpha' });
    const transport = createFakeTransport({
      'roots.list': () => ok(view([removed])),
      'roots.remove': () => ok({ removed }),
      'roots.restore': () => fail('NOT_FOUND', "root 'a' cannot be restored"),
      'roots.add': ({ path, name }) => ok(root('a2', { path, name: name ?? 'x' })),
    });
    const store = createBerthStore(transport);
    await store.getState().loadRoots();
    await store.getState().removeRoot('a');
    shownToasts(store).at(-1)?.action?.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(transport.calls.slice(-2).map((call) => call.method)).toEqual(['roots.restore', 'roots.add']);
    expect(transport.calls.at(-1)).toEqual({ method: 'roots.add', input: { path: '/work/alpha', name: 'Alpha' } });
    expect(store.getState().rootsView?.roots.map((r) => r.name)).toEqual(['Alpha']);
  });

  it('shows a failed remove, exposure change or reset as an error toast', async () => {
    const transport = createFakeTransport({
      'roots.remove': () => fail('NOT_FOUND', "no root 'a'"),
      'roots.setExposure': () => fail('INVALID_INPUT', 'unknown root z'),
      'roots.resetConsent': ({ server }) => ok(view([], { consent: { [server]: { allowed: [], denied: [] } } })),
    });
    const store = createBerthStore(transport);
    await store.getState().removeRoot('a');
    await store.getState().setRootExposure('fs', ['z']);
    expect(shownToasts(store).map((t) => [t.tone, t.title, t.message])).toEqual([
      ['error', 'Could not remove the root', "no root 'a'"],
      ['error', 'Could not change what fs sees', 'unknown root z'],
    ]);
    await store.getState().resetRootConsent('fs', ['a']);
    expect(transport.calls.at(-1)).toEqual({ method: 'roots.resetConsent', input: { server: 'fs', rootIds: ['a'] } });
    expect(store.getState().rootsView?.consent).toEqual({ fs: { allowed: [], denied: [] } });
  });
});
