import { describe, expect, it } from 'vitest';
import { HostError } from '../../shared/result';
import { APP_MIME, APP_URI, FakeAppServers, notRunningState, serverState, uiTool } from './apps-test-support';
import { UiResourceCatalog } from './ui-resource-catalog';

function setUp(options: { maxEntries?: number } = {}) {
  const servers = new FakeAppServers();
  servers.set(serverState('basic', [uiTool('get-time')]));
  const changed: string[] = [];
  const warnings: string[] = [];
  const catalog = new UiResourceCatalog({
    servers,
    onChanged: (server) => changed.push(server),
    warn: (server, text) => warnings.push(`${server}: ${text}`),
    now: () => 42,
    ...options,
  });
  const reads = () => servers.requests.filter((request) => request.method === 'resources/read').length;
  return { servers, catalog, changed, warnings, reads };
}

describe('UiResourceCatalog', () => {
  it('reads a UI resource once per server and URI, with the list entry’s _meta.ui when the item has none', async () => {
    const { servers, catalog, reads } = setUp();
    servers.answer = (_server, method) =>
      method === 'resources/read'
        ? { contents: [{ uri: APP_URI, mimeType: APP_MIME, text: '<p>time</p>' }] }
        : {
            resources: [
              {
                uri: APP_URI,
                name: 'app',
                _meta: {
                  ui: {
                    csp: { connectDomains: ['https://api.example.com'] },
                    permissions: { microphone: {} },
                    prefersBorder: true,
                  },
                },
              },
            ],
          };
    const first = await catalog.read('basic', APP_URI);
    expect(first).toEqual({
      server: 'basic',
      uri: APP_URI,
      html: '<p>time</p>',
      csp: { connectDomains: ['https://api.example.com'] },
      permissions: ['microphone'],
      prefersBorder: true,
      fetchedAt: 42,
    });
    const [again, parallel] = await Promise.all([catalog.read('basic', APP_URI), catalog.read('basic', APP_URI)]);
    expect(again).toBe(first);
    expect(parallel).toBe(first);
    expect(reads()).toBe(1);
    expect(servers.requests.map((request) => request.method)).toEqual(['resources/read', 'resources/list']);
  });

  it('prefers the read item’s own _meta.ui and does not list then', async () => {
    const { servers, catalog } = setUp();
    servers.answer = () => ({
      contents: [{ uri: APP_URI, mimeType: APP_MIME, text: '<p/>', _meta: { ui: { permissions: { camera: {} } } } }],
    });
    expect(await catalog.read('basic', APP_URI)).toMatchObject({ csp: {}, permissions: ['camera'] });
    expect(servers.requests.map((request) => request.method)).toEqual(['resources/read']);
  });

  it('runs with the defaults, and says so in the server’s log, when the list cannot be read', async () => {
    const { servers, catalog, warnings } = setUp();
    servers.answer = (_server, method) => {
      if (method === 'resources/list') throw new Error('Method not found');
      return { contents: [{ uri: APP_URI, mimeType: APP_MIME, text: '<p/>' }] };
    };
    expect(await catalog.read('basic', APP_URI)).toMatchObject({ csp: {}, permissions: [] });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^basic: could not read the resource list .* no network and no permissions\): server 'basic' could not list its resources: Method not found/,
      ),
    ]);
  });

  it('stops following a server’s list cursors after ten pages', async () => {
    const { servers, catalog } = setUp();
    servers.answer = (_server, method, params) =>
      method === 'resources/read'
        ? { contents: [{ uri: APP_URI, mimeType: APP_MIME, text: '<p/>' }] }
        : { resources: [], nextCursor: `${Number(params.cursor ?? 0) + 1}` };
    expect(await catalog.read('basic', APP_URI)).toMatchObject({ csp: {} });
    expect(servers.requests.filter((request) => request.method === 'resources/list')).toHaveLength(10);
  });

  it('drops a server’s cache on resources or tools list_changed, a restart, a stop and a removal, and announces it', async () => {
    const { servers, catalog, changed, reads } = setUp();
    await catalog.read('basic', APP_URI);
    catalog.listChanged.resources('basic');
    await catalog.read('basic', APP_URI);
    catalog.listChanged.tools('basic');
    await catalog.read('basic', APP_URI);
    expect(reads()).toBe(3);
    expect(changed).toEqual(['basic', 'basic']);

    // The same session reporting a new state (a log level, say) keeps it.
    catalog.serverChanged(serverState('basic', [uiTool('get-time')], { logLevel: 'info' }));
    await catalog.read('basic', APP_URI);
    expect(reads()).toBe(3);
    // A restart (new readySince) drops it.
    servers.set(serverState('basic', [uiTool('get-time')], { readySince: 2 }));
    catalog.serverChanged(serverState('basic', [uiTool('get-time')], { readySince: 2 }));
    expect(catalog.size).toBe(0);
    await catalog.read('basic', APP_URI);
    expect(reads()).toBe(4);
    catalog.serverChanged(notRunningState('basic', 'stopped'));
    expect(catalog.size).toBe(0);
    expect(changed).toEqual(['basic', 'basic', 'basic', 'basic']);
    await catalog.read('basic', APP_URI);
    catalog.serverRemoved('basic');
    expect(catalog.size).toBe(0);
    expect(changed.at(-1)).toBe('basic');
  });

  it('does not cache a read that a list change overtook, nor a failed read', async () => {
    const { servers, catalog, reads } = setUp();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answer = servers.answer;
    servers.answer = (server, method, params) => gate.then(() => answer(server, method, params));
    const pending = catalog.read('basic', APP_URI);
    catalog.listChanged.resources('basic');
    release();
    await pending;
    await catalog.read('basic', APP_URI);
    expect(reads()).toBe(2);

    servers.answer = () => ({ contents: [{ uri: APP_URI, mimeType: 'text/plain', text: 'x' }] });
    catalog.listChanged.resources('basic');
    await expect(catalog.read('basic', APP_URI)).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    servers.answer = answer;
    await expect(catalog.read('basic', APP_URI)).resolves.toMatchObject({ html: '<p>app</p>' });
  });

  it('says NOT_FOUND for an unknown server and NOT_READY for one that is not running, without asking it', async () => {
    const { servers, catalog } = setUp();
    await expect(catalog.read('gone', APP_URI)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining("no server named 'gone'"),
    });
    servers.set(notRunningState('basic', 'crashed'));
    const error = await catalog.read('basic', APP_URI).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostError);
    expect(error).toMatchObject({
      code: 'NOT_READY',
      message: "server 'basic' is not running (crashed): its app is shown once it is ready again",
    });
    expect(servers.requests).toEqual([]);
  });

  it('turns a server’s failure into words, and keeps no more than its bound of resources', async () => {
    const { servers, catalog } = setUp({ maxEntries: 2 });
    servers.answer = () => {
      throw new TypeError('socket hang up');
    };
    await expect(catalog.read('basic', APP_URI)).rejects.toMatchObject({
      code: 'SERVER_ERROR',
      message: `server 'basic' could not read the app UI ${APP_URI}: socket hang up`,
    });
    servers.answer = (_server, _method, params) => ({
      contents: [{ uri: params.uri, mimeType: APP_MIME, text: `<p>${String(params.uri)}</p>` }],
    });
    for (const uri of ['ui://a', 'ui://b', 'ui://c']) await catalog.read('basic', uri);
    expect(catalog.size).toBe(2);
  });
});
