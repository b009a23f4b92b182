import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connectDevToolsPipe, type DevToolsEvent } from './devtools-pipe';

function fakeBrowser() {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const sent: Array<Record<string, unknown>> = [];
  let buffered = '';
  toBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const frames = buffered.split('\0');
    buffered = frames.pop() ?? '';
    for (const frame of frames) sent.push(JSON.parse(frame) as Record<string, unknown>);
  });
  const tick = () => new Promise((resolveTick) => setImmediate(resolveTick));
  return { toBrowser, fromBrowser, sent, tick, reply: (text: string) => fromBrowser.write(text) };
}

describe('connectDevToolsPipe', () => {
  it('sends NUL-terminated commands and matches replies by id, also when frames arrive split or joined', async () => {
    const browser = fakeBrowser();
    const pipe = connectDevToolsPipe(browser.toBrowser, browser.fromBrowser);
    const first = pipe.call('Target.getTargets');
    const second = pipe.call('Page.enable', {}, 'session-1');
    await browser.tick();
    expect(browser.sent).toEqual([
      { id: 1, method: 'Target.getTargets', params: {} },
      { id: 2, method: 'Page.enable', params: {}, sessionId: 'session-1' },
    ]);
    browser.reply('{"id":2,"result":{"ok":true},"sessionId":"session-1"}\0{"id":1,"res');
    browser.reply('ult":{"targetInfos":[]}}\0');
    await expect(second).resolves.toEqual({ ok: true });
    await expect(first).resolves.toEqual({ targetInfos: [] });
  });

  it('rejects a call the browser answers with an error, naming the method', async () => {
    const browser = fakeBrowser();
    const pipe = connectDevToolsPipe(browser.toBrowser, browser.fromBrowser);
    const call = pipe.call('Page.navigate', { url: 'x' });
    browser.reply('{"id":1,"error":{"code":-32000,"message":"Cannot navigate to invalid URL"}}\0');
    await expect(call).rejects.toThrow('Page.navigate: Cannot navigate to invalid URL');
  });

  it('passes events to listeners until they unsubscribe', async () => {
    const browser = fakeBrowser();
    const pipe = connectDevToolsPipe(browser.toBrowser, browser.fromBrowser);
    const events: DevToolsEvent[] = [];
    const stop = pipe.onEvent((event) => events.push(event));
    browser.reply('{"method":"Target.targetCreated","params":{"targetInfo":{"type":"page"}}}\0');
    await browser.tick();
    stop();
    browser.reply('{"method":"Page.loadEventFired","params":{},"sessionId":"s"}\0');
    await browser.tick();
    expect(events).toEqual([{ method: 'Target.targetCreated', params: { targetInfo: { type: 'page' } } }]);
  });

  it('fails calls in flight and later ones when the browser goes away, without throwing', async () => {
    const browser = fakeBrowser();
    const pipe = connectDevToolsPipe(browser.toBrowser, browser.fromBrowser);
    const call = pipe.call('Target.setDiscoverTargets', { discover: true });
    browser.fromBrowser.end();
    await expect(call).rejects.toThrow('Target.setDiscoverTargets: the browser closed its DevTools pipe');
    await expect(pipe.call('Page.enable')).rejects.toThrow('Page.enable: the browser closed its DevTools pipe');
  });

  it('stops on a message that is not JSON instead of guessing', async () => {
    const browser = fakeBrowser();
    const pipe = connectDevToolsPipe(browser.toBrowser, browser.fromBrowser);
    const call = pipe.call('Page.enable');
    browser.reply('not json\0');
    await expect(call).rejects.toThrow('not JSON');
  });
});
