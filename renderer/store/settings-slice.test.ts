import { describe, expect, it } from 'vitest';
import { ok } from '../../shared/result';
import { createFakeTransport } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';

describe('settings slice', () => {
  const view = { apiKey: { source: 'none' as const }, models: [{ id: 'm1', label: 'Model one' }], defaultModel: 'm1' };

  it('loads settings and policies and applies their change events', async () => {
    const transport = createFakeTransport({
      'settings.get': () => ok(view),
      'consent.policies': () => ok([{ id: 'p1', scope: 'tool' as const, server: 's', tool: 'echo', createdAt: 1 }]),
      'sampling.policies': () => ok({ s: 'never' as const }),
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await store.getState().loadSettings();
    expect(store.getState().settings).toEqual(view);
    expect(store.getState().consentPolicies.map((p) => p.id)).toEqual(['p1']);
    expect(store.getState().samplingPolicies).toEqual({ s: 'never' });
    transport.emit('settings.changed', { ...view, apiKey: { source: 'stored', hint: '…abcd' } });
    transport.emit('consent.policiesChanged', { policies: [] });
    transport.emit('sampling.policiesChanged', { policies: {} });
    expect(store.getState().settings?.apiKey).toEqual({ source: 'stored', hint: '…abcd' });
    expect(store.getState().consentPolicies).toEqual([]);
    expect(store.getState().samplingPolicies).toEqual({});
  });

  it('returns a refused API key to the form without changing the settings', async () => {
    const transport = createFakeTransport({
      'settings.setApiKey': () => ({ ok: false, code: 'INVALID_INPUT', message: 'That is too short to be an API key' }),
    });
    const store = createBerthStore(transport);
    store.getState().applySettings(view);
    const result = await store.getState().saveApiKey('abc');
    expect(result).toMatchObject({ ok: false, message: 'That is too short to be an API key' });
    expect(store.getState().settings).toEqual(view);
  });
});
