import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PROXY_LOGGER,
  SANDBOX_PROXY_READY,
  SANDBOX_RESOURCE_READY,
  startSandboxRelay,
  type ProxyEnvironment,
} from './relay';
import { buildAppCsp } from '../../shared/apps/app-csp';
import { CSP_VIOLATION_LOGGER, CSP_VIOLATION_REPORTER, SANDBOX_CSP_VIOLATION } from './csp-violations';

const PARENT_ORIGIN = 'http://127.0.0.1:4000';
const SELF_ORIGIN = 'http://127.0.0.1:4001';

function setup(search = '') {
  const parent = { postMessage: vi.fn() };
  const frames: Array<{
    attributes: { sandbox: string; allow: string; srcdoc: string };
    onLoad: () => void;
    window: { postMessage: ReturnType<typeof vi.fn> };
    removed: boolean;
  }> = [];
  const notes: string[] = [];
  const reloads: string[] = [];
  const env: ProxyEnvironment = {
    parent,
    parentOrigin: PARENT_ORIGIN,
    selfOrigin: SELF_ORIGIN,
    search,
    reloadWithQuery: (query) => reloads.push(query),
    createFrame: (attributes, onLoad) => {
      const record = { attributes, onLoad, window: { postMessage: vi.fn() }, removed: false };
      frames.push(record);
      return {
        get window() {
          return record.removed ? null : record.window;
        },
        remove: () => {
          record.removed = true;
        },
      };
    },
    showNote: (text) => notes.push(text),
  };
  const relay = startSandboxRelay(env);
  const fromParent = (data: unknown, origin = PARENT_ORIGIN): void => relay.onMessage({ source: parent, origin, data });
  const render = (params: Record<string, unknown>): void =>
    fromParent({ jsonrpc: '2.0', method: SANDBOX_RESOURCE_READY, params });
  const sentToParent = (): unknown[] => parent.postMessage.mock.calls.map((call) => call[0]);
  return { parent, frames, notes, reloads, relay, fromParent, render, sentToParent };
}

afterEach(() => vi.restoreAllMocks());

describe('sandbox relay', () => {
  it('announces itself to its parent, at its exact origin', () => {
    const t = setup();
    expect(t.parent.postMessage).toHaveBeenCalledExactlyOnceWith(
      { jsonrpc: '2.0', method: SANDBOX_PROXY_READY, params: {} },
      PARENT_ORIGIN,
    );
  });

  it('builds the app frame with the CSP meta first, the narrow sandbox and only the passed permissions', () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const t = setup(`?csp=${encodeURIComponent(JSON.stringify(csp))}`);
    t.render({ html: '<!doctype html><p>hi</p>', csp, permissions: { camera: {} } });
    expect(t.frames).toHaveLength(1);
    const { attributes } = t.frames[0]!;
    expect(attributes.sandbox).toBe('allow-scripts');
    expect(attributes.allow).toBe('camera');
    expect(attributes.srcdoc).toBe(
      `<!doctype html><meta http-equiv="Content-Security-Policy" content="${buildAppCsp(csp).policy}">${CSP_VIOLATION_REPORTER}<p>hi</p>`,
    );
    expect(t.sentToParent()).toHaveLength(1); // only the ready notice: nothing to warn about
  });

  it('never widens the sandbox and reports what it refused to the host', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = setup();
    t.render({
      html: '',
      sandbox: 'allow-scripts allow-same-origin allow-popups',
      permissions: ['usb'],
      csp: { connectDomains: ['*'] },
    });
    expect(t.frames[0]!.attributes.sandbox).toBe('allow-scripts');
    expect(t.frames[0]!.attributes.allow).toBe('');
    const notes = t.sentToParent().slice(1) as Array<{
      method: string;
      params: { level: string; logger: string; data: string };
    }>;
    expect(notes.map((note) => note.params.data)).toEqual([
      expect.stringContaining('connectDomains: "*"'),
      expect.stringContaining('usb'),
      expect.stringContaining('allow-same-origin, allow-popups'),
    ]);
    expect(notes.every((note) => note.method === 'notifications/message' && note.params.logger === PROXY_LOGGER)).toBe(
      true,
    );
  });

  it("leaves Berth's own origin and the proxy's out of the app's CSP and tells the host", () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const csp = { connectDomains: ['ws://localhost:4000', 'http://127.0.0.1:4001/', 'https://api.example.com'] };
    const t = setup(`?csp=${encodeURIComponent(JSON.stringify(csp))}`);
    t.render({ html: '<p>hi</p>', csp });
    expect(t.frames[0]!.attributes.srcdoc).toContain('connect-src https://api.example.com;');
    const notes = (t.sentToParent().slice(1) as Array<{ params: { data: string } }>).map((note) => note.params.data);
    expect(notes).toEqual([
      expect.stringContaining(`"ws://localhost:4000" (it is Berth's own window and bridge (${PARENT_ORIGIN})`),
      expect.stringContaining(`"http://127.0.0.1:4001/" (it is the app sandbox's own page (${SELF_ORIGIN})`),
    ]);
  });

  it("loads itself again with the app's CSP in its URL when it was loaded without one, once", () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const t = setup('');
    t.render({ html: '<p>x</p>', csp });
    expect(t.frames).toHaveLength(0);
    expect(t.reloads).toHaveLength(1);
    expect(JSON.parse(new URLSearchParams(t.reloads[0]).get('csp') ?? '')).toEqual(csp);

    const reloaded = setup(t.reloads[0]);
    reloaded.render({ html: '<p>x</p>', csp });
    expect(reloaded.reloads).toEqual([]);
    expect(reloaded.frames).toHaveLength(1);
    expect(reloaded.sentToParent()).toHaveLength(1); // the policies match: nothing to warn about
  });

  it('needs no reload for an app that declares nothing', () => {
    const t = setup('');
    t.render({ html: '', csp: { connectDomains: [] } });
    expect(t.reloads).toEqual([]);
    expect(t.frames).toHaveLength(1);
  });

  it('says so when the CSP it was loaded with differs from the one passed', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = setup(`?csp=${encodeURIComponent('{}')}`);
    t.render({ html: '', csp: { connectDomains: ['https://api.example.com'] } });
    expect(t.reloads).toEqual([]);
    expect(t.sentToParent()[1]).toMatchObject({
      params: { level: 'warning', data: expect.stringContaining('stricter wins') },
    });
  });

  it('refuses resource-ready from anyone but its parent at its origin', () => {
    const t = setup();
    const html = { jsonrpc: '2.0', method: SANDBOX_RESOURCE_READY, params: { html: '<p>evil</p>' } };
    t.relay.onMessage({ source: { postMessage: vi.fn() }, origin: PARENT_ORIGIN, data: html });
    t.fromParent(html, 'http://evil.example');
    expect(t.frames).toHaveLength(0);
  });

  it('relays JSON-RPC both ways between the parent and the app frame only', () => {
    const t = setup();
    t.render({ html: '' });
    const app = t.frames[0]!.window;
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
    t.relay.onMessage({ source: app, origin: 'null', data: request });
    expect(t.parent.postMessage).toHaveBeenLastCalledWith(request, PARENT_ORIGIN);

    const answer = { jsonrpc: '2.0', id: 1, result: {} };
    t.fromParent(answer);
    expect(app.postMessage).toHaveBeenCalledExactlyOnceWith(answer, '*');

    // A stranger, non-JSON-RPC data and the app faking the sandbox handshake go nowhere.
    const before = t.parent.postMessage.mock.calls.length;
    t.relay.onMessage({ source: { postMessage: vi.fn() }, origin: 'null', data: request });
    t.relay.onMessage({ source: app, origin: 'null', data: 'hello' });
    t.relay.onMessage({
      source: app,
      origin: 'null',
      data: { jsonrpc: '2.0', method: SANDBOX_PROXY_READY, params: {} },
    });
    t.fromParent('not json-rpc');
    expect(t.parent.postMessage.mock.calls.length).toBe(before);
    expect(app.postMessage).toHaveBeenCalledTimes(1);
  });

  it("words the app's CSP refusals for the host and lets no app log pass for Berth's own", () => {
    const t = setup();
    t.render({ html: '' });
    const app = t.frames[0]!.window;
    const before = t.parent.postMessage.mock.calls.length;
    t.relay.onMessage({
      source: app,
      origin: 'null',
      data: { jsonrpc: '2.0', method: SANDBOX_CSP_VIOLATION, params: { directive: 'worker-src', blocked: 'data' } },
    });
    expect(t.parent.postMessage).toHaveBeenLastCalledWith(
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: {
          level: 'warning',
          logger: CSP_VIOLATION_LOGGER,
          data: { directive: 'worker-src', blocked: 'data' },
        },
      },
      PARENT_ORIGIN,
    );
    // A report that is not one, and the app's own log under Berth's logger names, go nowhere.
    t.relay.onMessage({ source: app, origin: 'null', data: { jsonrpc: '2.0', method: SANDBOX_CSP_VIOLATION } });
    for (const logger of [CSP_VIOLATION_LOGGER, PROXY_LOGGER])
      t.relay.onMessage({
        source: app,
        origin: 'null',
        data: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger, data: 'fake' } },
      });
    expect(t.parent.postMessage.mock.calls.length).toBe(before + 1);
  });

  it('closes an app that navigates its own frame and stops relaying to it', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = setup();
    t.render({ html: '' });
    const frame = t.frames[0]!;
    frame.onLoad();
    expect(frame.removed).toBe(false);
    frame.onLoad();
    expect(frame.removed).toBe(true);
    // The page words its note in the person's language (proxy-words.ts); the host's log keeps the English.
    expect(t.notes).toEqual(['apps-sandbox.navigated-away']);
    expect(t.sentToParent().at(-1)).toMatchObject({
      params: { level: 'error', data: 'The app navigated away from its own page, so Berth closed it.' },
    });
    t.fromParent({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params: {} });
    expect(frame.window.postMessage).not.toHaveBeenCalled();
  });

  it('replaces the app on a second resource-ready', () => {
    const t = setup();
    t.render({ html: '<p>1</p>' });
    t.render({ html: '<p>2</p>' });
    expect(t.frames.map((frame) => frame.removed)).toEqual([true, false]);
  });

  it('tells the host when the HTML or the CSP is unusable', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = setup();
    t.render({});
    t.render({ html: '', csp: 'https://a.example.com' });
    expect(t.frames).toHaveLength(0);
    expect(t.sentToParent().slice(1)).toEqual([
      expect.objectContaining({
        params: expect.objectContaining({ level: 'error', data: expect.stringContaining('no HTML') }),
      }),
      expect.objectContaining({
        params: expect.objectContaining({ level: 'error', data: expect.stringContaining('app CSP') }),
      }),
    ]);
  });
});
