import { describe, expect, it, vi } from 'vitest';
import type { PendingRequest } from '../../../shared/domain/pending';
import { activateLocale } from '../../i18n/i18n';
import { createBerthStore } from '../../store';
import { createFakeTransport } from '../../test-support/fake-transport';
import {
  NOTIFICATIONS_OFFERED_KEY,
  markNotificationsOffered,
  shouldOfferNotifications,
  titleWithCount,
  watchAttention,
  type AttentionEnvironment,
} from './attention';

const call = (id: string, server = 'everything'): PendingRequest =>
  ({
    id,
    kind: 'tool-call',
    server,
    createdAt: 1,
    payload: {
      tool: 'echo',
      arguments: { message: 'hi' },
      serverIdentity: 'x',
      annotationsTrusted: false,
      argumentsDigest: 'd',
    },
  }) as unknown as PendingRequest;

function environment(options: { focused: boolean; permission: NotificationPermission }) {
  class FakeNotification {
    static permission = options.permission;
    onclick: (() => void) | null = null;
    closed = false;
    constructor(
      readonly title: string,
      readonly options?: NotificationOptions,
    ) {
      made.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  const made: FakeNotification[] = [];
  const focusWindow = vi.fn();
  const env: AttentionEnvironment = {
    document: { title: 'Berth', hasFocus: () => options.focused, visibilityState: 'visible' },
    Notification: FakeNotification as unknown as AttentionEnvironment['Notification'],
    focusWindow,
  };
  return { env, made, focusWindow };
}

function storeWith(pending: PendingRequest[] = []) {
  const store = createBerthStore(createFakeTransport({}));
  store.setState({ pending });
  return store;
}

describe('a waiting request gets noticed', () => {
  it('the title counts the waiting requests, and goes back when none waits', () => {
    const store = storeWith();
    const { env } = environment({ focused: true, permission: 'granted' });
    watchAttention(store, env);
    expect(env.document.title).toBe('Berth');
    store.setState({ pending: [call('a'), call('b')] });
    expect(env.document.title).toBe('(2) Berth');
    store.setState({ pending: [] });
    expect(env.document.title).toBe(titleWithCount(0));
  });

  it('raises one notification per new request only while the window is not focused, and clicking it opens that request', () => {
    const store = storeWith();
    const away = environment({ focused: false, permission: 'granted' });
    watchAttention(store, away.env);
    store.setState({ pending: [call('a', 'files')] });
    store.setState({ pending: [call('a', 'files'), call('b')] });
    expect(away.made.map((n) => [n.title, n.options?.body, n.options?.tag])).toEqual([
      ['\u2068files\u2069 is waiting for you', 'Run echo', 'berth-a'],
      ['\u2068everything\u2069 is waiting for you', 'Run echo', 'berth-b'],
    ]);
    away.made[0]!.onclick!();
    expect(away.focusWindow).toHaveBeenCalled();
    expect(store.getState().focusedPending).toBe('a');
    // Answered elsewhere: its notification goes.
    store.setState({ pending: [call('a', 'files')] });
    expect(away.made[1]!.closed).toBe(true);

    const here = environment({ focused: true, permission: 'granted' });
    const other = storeWith();
    watchAttention(other, here.env);
    other.setState({ pending: [call('c')] });
    expect(here.made).toEqual([]);
  });

  it('shows a hostile name escaped and isolated in the notification, never raw', () => {
    const store = storeWith();
    const away = environment({ focused: false, permission: 'granted' });
    watchAttention(store, away.env);
    const hostile = {
      ...call('h', 'files\u202Ex'),
      payload: { tool: 'wipe\u202Eexe.txt\nrm', arguments: {} },
    } as unknown as PendingRequest;
    store.setState({ pending: [hostile] });
    expect(away.made.map((n) => [n.title, n.options?.body])).toEqual([
      ['\u2068files\\u202Ex\u2069 is waiting for you', 'Run wipe\\u202Eexe.txt\\u000Arm'],
    ]);
  });

  it("titles the notification in the person's language, the server's name isolated as ever", async () => {
    await activateLocale('ja');
    const store = storeWith();
    const away = environment({ focused: false, permission: 'granted' });
    watchAttention(store, away.env);
    store.setState({ pending: [call('a', 'files')] });
    expect(away.made.map((n) => n.title)).toEqual(['\u2068files\u2069 があなたの応答を待っています']);
  });

  it('never notifies without the person’s permission', () => {
    for (const permission of ['default', 'denied'] as const) {
      const store = storeWith();
      const { env, made } = environment({ focused: false, permission });
      watchAttention(store, env);
      store.setState({ pending: [call('a')] });
      expect(made).toEqual([]);
      expect(env.document.title).toBe('(1) Berth');
    }
  });

  it('offers notifications once, and only while nobody decided', () => {
    const items = new Map<string, string>();
    const storage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
    };
    expect(shouldOfferNotifications(environment({ focused: true, permission: 'default' }).env, storage)).toBe(true);
    expect(shouldOfferNotifications(environment({ focused: true, permission: 'granted' }).env, storage)).toBe(false);
    expect(shouldOfferNotifications({ Notification: undefined }, storage)).toBe(false);
    markNotificationsOffered(storage);
    expect(items.get(NOTIFICATIONS_OFFERED_KEY)).toBe('1');
    expect(shouldOfferNotifications(environment({ focused: true, permission: 'default' }).env, storage)).toBe(false);
  });
});
