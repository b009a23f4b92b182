import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { INJECTED_TOKEN_GLOBAL } from '../../shared/contract';
import type { DevToolsEvent, DevToolsPipe } from './devtools-pipe';
import { handTokenToWindow, injectedTokenScript } from './window-token';

const PAGE = 'http://127.0.0.1:4123/';

/** Runs the injected script as the browser would in a document at `href`; returns that document's window. */
function runIn(href: string, source: string): Record<string, unknown> {
  const window: Record<string, unknown> = {};
  runInNewContext(source, { location: new URL(href), window, Object });
  return window;
}

describe('injectedTokenScript', () => {
  it("defines the token on Berth's own page only", () => {
    const source = injectedTokenScript(PAGE, 'tok-EN_1');
    expect(runIn('http://127.0.0.1:4123/anything?x#y', source)[INJECTED_TOKEN_GLOBAL]).toBe('tok-EN_1');
    for (const other of [
      'http://127.0.0.1:4124/',
      'http://localhost:4123/',
      'https://example.com/',
      'data:text/html,x',
    ]) {
      expect(INJECTED_TOKEN_GLOBAL in runIn(other, source), other).toBe(false);
    }
  });

  it('keeps a hostile-looking value a plain string', () => {
    const window = runIn(PAGE, injectedTokenScript(PAGE, '"); throw 1; ("'));
    expect(window[INJECTED_TOKEN_GLOBAL]).toBe('"); throw 1; ("');
  });
});

/** A browser that has one page target and records the commands it gets. */
function fakePipe(answers: Record<string, Record<string, unknown>> = {}) {
  const calls: Array<{ method: string; params: Record<string, unknown>; sessionId?: string }> = [];
  const listeners = new Set<(event: DevToolsEvent) => void>();
  const pipe: DevToolsPipe = {
    call(method, params = {}, sessionId) {
      calls.push({ method, params, ...(sessionId !== undefined ? { sessionId } : {}) });
      if (method === 'Target.setDiscoverTargets') {
        setImmediate(() => {
          for (const listener of [...listeners])
            listener({
              method: 'Target.targetCreated',
              params: { targetInfo: { type: 'browser_ui', targetId: 'ui' } },
            });
          for (const listener of [...listeners])
            listener({
              method: 'Target.targetCreated',
              params: { targetInfo: { type: 'page', targetId: 'window-1' } },
            });
        });
      }
      if (method === 'Target.attachToTarget') return Promise.resolve({ sessionId: 'session-1' });
      return Promise.resolve(answers[method] ?? {});
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => undefined,
  };
  return { pipe, calls };
}

describe('handTokenToWindow', () => {
  it('registers the token script on the page target before opening Berth in it', async () => {
    const { pipe, calls } = fakePipe();
    await handTokenToWindow(pipe, { pageUrl: PAGE, token: 'tok-EN_1' });
    expect(calls).toEqual([
      { method: 'Target.setDiscoverTargets', params: { discover: true } },
      { method: 'Target.attachToTarget', params: { targetId: 'window-1', flatten: true } },
      { method: 'Page.enable', params: {}, sessionId: 'session-1' },
      {
        method: 'Page.addScriptToEvaluateOnNewDocument',
        params: { source: injectedTokenScript(PAGE, 'tok-EN_1') },
        sessionId: 'session-1',
      },
      { method: 'Page.navigate', params: { url: PAGE }, sessionId: 'session-1' },
    ]);
  });

  it('fails with the reason when the page cannot be loaded', async () => {
    const { pipe } = fakePipe({ 'Page.navigate': { errorText: 'net::ERR_CONNECTION_REFUSED' } });
    await expect(handTokenToWindow(pipe, { pageUrl: PAGE, token: 'tok-EN_1' })).rejects.toThrow(
      `could not load ${PAGE} (net::ERR_CONNECTION_REFUSED)`,
    );
  });

  it('gives up when the browser never shows a page', async () => {
    const pipe: DevToolsPipe = {
      call: () => Promise.resolve({}),
      onEvent: () => () => undefined,
      close: () => undefined,
    };
    await expect(handTokenToWindow(pipe, { pageUrl: PAGE, token: 'tok-EN_1', timeoutMs: 50 })).rejects.toThrow(
      'did not answer',
    );
  });
});
