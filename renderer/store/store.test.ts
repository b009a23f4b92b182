import { shownToasts } from '../test-support/shown-toasts';
import { describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../shared/domain';
import { ok } from '../../shared/result';
import { activateLocale } from '../i18n/i18n';
import { createFakeTransport, serverState } from '../test-support/fake-transport';
import { connectStore, createBerthStore } from './create-store';
import { appendCapped, LOG_CAP } from './logs-slice';
import { sortServers } from './servers-slice';
import { verbatim } from '../i18n/words';

function entry(seq: number, overrides: Partial<LogEntry> = {}): LogEntry {
  return { seq, server: 'a', time: 1_700_000_000_000 + seq, source: 'stderr', text: `line ${seq}`, ...overrides };
}

const CONFIG_OK = { path: '/c/config.json', state: 'ok' as const, problems: [] };
const APP_INFO = {
  version: '0.1.0',
  shell: 'browser' as const,
  platform: 'linux',
  configPath: '/c/config.json',
  configDir: '/c',
  logsDir: '/c/logs',
};

function snapshotHandlers() {
  return {
    'app.info': () => ok(APP_INFO),
    'config.status': () => ok(CONFIG_OK),
    'servers.list': () => ok([serverState('b'), serverState('a', { status: 'ready' })]),
    'logs.query': () => ok({ entries: [entry(1), entry(2)], dropped: 0 }),
  };
}

describe('connectStore', () => {
  it('loads every snapshot once the transport is open', async () => {
    const transport = createFakeTransport(snapshotHandlers());
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await vi.waitFor(() => expect(store.getState().logsLoaded).toBe(true));
    const s = store.getState();
    expect(s.appInfo).toEqual(APP_INFO);
    expect(s.configStatus).toEqual(CONFIG_OK);
    expect(sortServers(s.servers).map((x) => x.name)).toEqual(['a', 'b']);
    expect(s.logs.map((r) => r.seq)).toEqual([1, 2]);
    expect(transport.calls.find((c) => c.method === 'logs.query')?.input).toEqual({ limit: LOG_CAP });
  });

  it('waits for the socket to open, and fetches again after a reconnect', async () => {
    const transport = createFakeTransport(snapshotHandlers(), {
      state: 'connecting',
      everOpened: false,
      failedAttempts: 0,
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    expect(transport.calls).toHaveLength(0);
    transport.setConnection({ state: 'open', everOpened: true, failedAttempts: 0 });
    await vi.waitFor(() => expect(transport.calls.filter((c) => c.method === 'servers.list')).toHaveLength(1));
    transport.setConnection({ state: 'lost', everOpened: true, failedAttempts: 1, retryAt: Date.now() + 1000 });
    expect(store.getState().connection.state).toBe('lost');
    transport.setConnection({ state: 'open', everOpened: true, failedAttempts: 0 });
    await vi.waitFor(() => expect(transport.calls.filter((c) => c.method === 'servers.list')).toHaveLength(2));
  });

  it('applies server events and removes selection of a removed server', async () => {
    const transport = createFakeTransport(snapshotHandlers());
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await vi.waitFor(() => expect(store.getState().serversLoaded).toBe(true));
    transport.emit('servers.changed', serverState('a', { status: 'crashed', reason: 'exited with code 1' }));
    expect(store.getState().servers.a).toMatchObject({ status: 'crashed', reason: 'exited with code 1' });
    store.getState().selectServer('b');
    store.getState().showLogsFor('b');
    transport.emit('servers.removed', { name: 'b' });
    expect(store.getState().servers.b).toBeUndefined();
    expect(store.getState().selectedServer).toBeUndefined();
    expect(store.getState().logServer).toBeUndefined();
  });

  it('appends log batches and honours logs.cleared for one server or all', async () => {
    const transport = createFakeTransport(snapshotHandlers());
    const store = createBerthStore(transport);
    connectStore(store, transport);
    await vi.waitFor(() => expect(store.getState().logsLoaded).toBe(true));
    transport.emit('logs.appended', { entries: [entry(3, { server: 'b' }), entry(4)] });
    expect(store.getState().logs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    transport.emit('logs.cleared', { server: 'a' });
    expect(store.getState().logs.map((r) => r.seq)).toEqual([3]);
    transport.emit('logs.cleared', {});
    expect(store.getState().logs).toEqual([]);
  });

  it('keeps batches that arrived while the log snapshot was in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const transport = createFakeTransport({
      ...snapshotHandlers(),
      'logs.query': async () => {
        await gate;
        return ok({ entries: [entry(1), entry(2), entry(3)], dropped: 7 });
      },
    });
    const store = createBerthStore(transport);
    connectStore(store, transport);
    transport.emit('logs.appended', { entries: [entry(3), entry(4)] });
    release();
    await vi.waitFor(() => expect(store.getState().logsLoaded).toBe(true));
    expect(store.getState().logs.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(store.getState().logsDropped).toBe(7);
  });
});

describe('log cap', () => {
  it('keeps only the newest entries and ignores replays', () => {
    const first = appendCapped([], [entry(1), entry(2), entry(3)], 4);
    const second = appendCapped(first, [entry(3), entry(4), entry(5), entry(6)], 4);
    expect(second.map((r) => r.seq)).toEqual([3, 4, 5, 6]);
    expect(appendCapped(second, [entry(2)], 4)).toBe(second);
  });

  it('caps a single huge batch', () => {
    const batch = Array.from({ length: 10 }, (_, i) => entry(i + 1));
    expect(appendCapped([], batch, 3).map((r) => r.seq)).toEqual([8, 9, 10]);
  });

  it('holds at most LOG_CAP rows in the store', () => {
    const transport = createFakeTransport();
    const store = createBerthStore(transport);
    const batch = Array.from({ length: 50_000 }, (_, i) => entry(i));
    for (let round = 0; round < 5; round++) {
      store.getState().applyLogsAppended(batch.map((e) => ({ ...e, seq: e.seq + round * 50_000 })));
    }
    const { logs } = store.getState();
    expect(logs).toHaveLength(LOG_CAP);
    expect(logs[0]!.seq).toBe(50_000);
    expect(logs[logs.length - 1]!.seq).toBe(249_999);
  });

  it('precomputes a lowercase haystack of text, method and logger', () => {
    const [row] = appendCapped([], [entry(1, { text: 'Hello WORLD', method: 'Tools/List', logger: 'Net' })]);
    expect(row!.haystack).toBe('hello world\ntools/list\nnet');
  });
});

describe('actions', () => {
  it('turns a failed lifecycle call into an error toast naming the server', async () => {
    const transport = createFakeTransport({
      'servers.start': () => ({ ok: false, code: 'NOT_FOUND', message: 'No server named ghost' }),
    });
    const store = createBerthStore(transport);
    await store.getState().startServer('ghost');
    expect(shownToasts(store)).toEqual([
      expect.objectContaining({ tone: 'error', title: 'Could not start “ghost”', message: 'No server named ghost' }),
    ]);
  });

  it("words the servers' toasts in the person's language, the host's message as sent", async () => {
    await activateLocale('zh-TW');
    const transport = createFakeTransport({
      'servers.restart': () => ({ ok: false, code: 'NOT_FOUND', message: 'No server named ghost' }),
      'servers.signOut': () => ok(serverState('files')),
    });
    const store = createBerthStore(transport);
    await store.getState().restartServer('ghost');
    await store.getState().signOutServer('files');
    expect(shownToasts(store)).toEqual([
      expect.objectContaining({ title: '無法重新啟動「ghost」', message: 'No server named ghost' }),
      expect.objectContaining({ title: '已登出「files」', message: '其 token 和用戶端註冊資訊已清除。' }),
    ]);
  });

  it("words every slice's failure toast in the person's language", async () => {
    await activateLocale('ja');
    // No handlers: the fake host refuses every call, as a host that lost its config would.
    const store = createBerthStore(createFakeTransport({}));
    const s = store.getState();
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => s.loadAppInfo(), 'Berth のアプリ情報を読み込めませんでした'],
      [() => s.loadConfigStatus(), '設定ファイルの状態を読み込めませんでした'],
      [() => s.loadProviders(), 'モデルプロバイダーを読み込めませんでした'],
      [() => s.clearLogs(undefined), 'ログを消去できませんでした'],
      [() => s.cancelTask('t1'), 'タスクをキャンセルできませんでした'],
      [
        () => s.loadPending(),
        '待機中のリクエストを読み込めませんでした | 開いているブラウザーのリンクを読み込めませんでした',
      ],
      [() => s.setLanguage('ko'), '言語を変更できませんでした'],
      [() => s.setRootExposure('fs', 'all'), 'fs から見える範囲を変更できませんでした'],
      [() => s.resetSamplingUsage('fs'), '「fs」のサンプリングの予算をリセットできませんでした'],
      [
        () => s.setOptionalToolsAsTasks('fs', false),
        '「fs」が時間のかかるツール呼び出しを実行する方法を変更できませんでした',
      ],
      [() => s.setSendInstructions('fs', false), '「fs」の指示をモデルに送るかどうかを変更できませんでした'],
    ];
    const titles: string[] = [];
    for (const [call, title] of calls) {
      store.setState({ toasts: [] });
      await call();
      titles.push(
        shownToasts(store)
          .map((toast) => toast.title)
          .join(' | ') || `(no toast; wanted ${title})`,
      );
    }
    expect(titles).toEqual(calls.map(([, title]) => title));
  });

  it("says in the person's language why a sampling request was refused, with the counts in its numbers", async () => {
    await activateLocale('zh-CN');
    const store = createBerthStore(createFakeTransport({}));
    store.getState().applyBudgetRefused({
      server: 'fs',
      message: 'The sampling budget of fs is spent',
      usage: {
        server: 'fs',
        limits: { ...store.getState().samplingDefaults, sessionBudget: 10000 },
        custom: true,
        used: 12000,
        inFlight: 0,
        requests: 3,
        refused: 1,
      },
    });
    expect(shownToasts(store).at(-1)).toMatchObject({
      title: '“fs”已用完其采样预算',
      message:
        'Berth 拒绝了它的补全请求：本次 Berth 会话中它已使用 12,000 / 10,000 个 token。请在该服务器的“概览”中提高或重置预算。',
      action: { label: '打开服务器' },
    });
  });

  it('returns add failures to the caller (the form shows them inline) without toasting', async () => {
    const transport = createFakeTransport({
      'servers.add': () => ({ ok: false, code: 'CONFLICT', message: 'A server named a exists' }),
    });
    const store = createBerthStore(transport);
    const result = await store.getState().addServer('a', { command: 'node' });
    expect(result).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(shownToasts(store)).toEqual([]);
  });

  it('drops the old name after a rename even if the host sends no removal event', async () => {
    const transport = createFakeTransport({ 'servers.update': ({ newName }) => ok(serverState(newName ?? 'x')) });
    const store = createBerthStore(transport);
    store.getState().applyServersSnapshot([serverState('old')]);
    const result = await store.getState().updateServer('old', 'new', { command: 'node' });
    expect(result.ok).toBe(true);
    expect(Object.keys(store.getState().servers)).toEqual(['new']);
  });

  it('keeps at most four toasts', () => {
    const store = createBerthStore(createFakeTransport());
    for (let i = 0; i < 6; i++) store.getState().pushToast({ tone: 'info', title: verbatim(`t${i}`) });
    expect(shownToasts(store).map((t) => t.title)).toEqual(['t2', 't3', 't4', 't5']);
  });
});
