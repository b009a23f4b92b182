import { describe, expect, it, vi } from 'vitest';
import { guardFrameNavigation, isAppFramePermission, type FrameNavigationEvent } from './app-sandbox-guards';
import type { MainLog } from './log';

const appFrame = { isMainFrame: false, requestingUrl: 'about:srcdoc' };

describe('isAppFramePermission', () => {
  it("grants an app's frame the four app permissions (Chromium has checked its allow= first)", () => {
    expect(isAppFramePermission('media', { ...appFrame, mediaTypes: ['video'] })).toBe(true);
    expect(isAppFramePermission('media', { ...appFrame, mediaTypes: ['audio', 'video'] })).toBe(true);
    expect(isAppFramePermission('media', { ...appFrame, mediaType: 'audio' })).toBe(true);
    expect(isAppFramePermission('geolocation', appFrame)).toBe(true);
    expect(isAppFramePermission('clipboard-sanitized-write', appFrame)).toBe(true);
  });

  it("never grants Berth's own page anything", () => {
    for (const permission of ['media', 'geolocation', 'clipboard-sanitized-write', 'notifications']) {
      expect(
        isAppFramePermission(permission, {
          isMainFrame: true,
          requestingUrl: 'berth://app/index.html',
          mediaTypes: ['video'],
        }),
      ).toBe(false);
      // A request that does not say which frame it came from is not an app's.
      expect(isAppFramePermission(permission, { requestingUrl: 'about:srcdoc', mediaTypes: ['video'] })).toBe(false);
    }
  });

  it("refuses everything else, and anything from frames that are not an app's own document", () => {
    for (const permission of [
      'notifications',
      'clipboard-read',
      'display-capture',
      'openExternal',
      'usb',
      'hid',
      'serial',
      'fullscreen',
      'pointerLock',
      'midiSysex',
    ]) {
      expect(isAppFramePermission(permission, appFrame)).toBe(false);
    }
    expect(isAppFramePermission('media', { ...appFrame, mediaTypes: [] })).toBe(false);
    expect(isAppFramePermission('media', { ...appFrame, mediaTypes: ['video', 'screen'] })).toBe(false);
    expect(isAppFramePermission('media', { ...appFrame, mediaType: 'unknown' })).toBe(false);
    expect(isAppFramePermission('geolocation', { isMainFrame: false, requestingUrl: 'berth-app://sandbox/' })).toBe(
      false,
    );
    expect(
      isAppFramePermission('geolocation', { isMainFrame: false, requestingUrl: 'https://www.youtube.com/embed/x' }),
    ).toBe(false);
  });
});

function navigation(url: string, parent: { url: string; parent: unknown } | null, isMainFrame = false) {
  const preventDefault = vi.fn<() => void>();
  const event: FrameNavigationEvent = { url, isMainFrame, frame: { parent }, preventDefault };
  return Object.assign(event, { preventDefault });
}

describe('guardFrameNavigation', () => {
  const log: MainLog = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const berthPage = { url: 'berth://app/index.html', parent: null };
  const proxy = { url: 'berth-app://sandbox/?csp=%7B%7D', parent: berthPage };
  const appDocument = { url: 'about:srcdoc', parent: proxy };

  it("lets Berth's page frame the app sandbox only", () => {
    const toProxy = navigation('berth-app://sandbox/?csp=%7B%7D', berthPage);
    guardFrameNavigation(toProxy, log);
    expect(toProxy.preventDefault).not.toHaveBeenCalled();
    for (const url of [
      'https://evil.example/',
      'berth://app/index.html',
      'berth-app://elsewhere/',
      'data:text/html,hi',
    ]) {
      const away = navigation(url, berthPage);
      guardFrameNavigation(away, log);
      expect(away.preventDefault, url).toHaveBeenCalled();
    }
  });

  it("keeps the app's frame on its srcdoc: an app cannot navigate itself to carry data out", () => {
    const srcdoc = navigation('about:srcdoc', proxy);
    guardFrameNavigation(srcdoc, log);
    expect(srcdoc.preventDefault).not.toHaveBeenCalled();
    for (const url of [
      'https://evil.example/?stolen=1',
      'http://127.0.0.1:9/',
      'berth://app/index.html',
      'javascript:alert(1)',
    ]) {
      const away = navigation(url, proxy);
      guardFrameNavigation(away, log);
      expect(away.preventDefault, url).toHaveBeenCalled();
    }
    expect(log.warn).toHaveBeenCalledWith(
      expect.stringContaining('blocked an app from navigating its frame to https://evil.example/?stolen=1'),
    );
  });

  it("leaves frames the app embeds to its CSP's frame-src, and main-frame navigations to will-navigate", () => {
    const nested = navigation('https://www.youtube.com/embed/x', appDocument);
    guardFrameNavigation(nested, log);
    expect(nested.preventDefault).not.toHaveBeenCalled();
    const main = navigation('https://evil.example/', null, true);
    guardFrameNavigation(main, log);
    expect(main.preventDefault).not.toHaveBeenCalled();
  });

  it('blocks a navigation whose frame is gone', () => {
    const orphan = { url: 'https://evil.example/', isMainFrame: false, frame: null, preventDefault: vi.fn() };
    guardFrameNavigation(orphan, log);
    expect(orphan.preventDefault).toHaveBeenCalled();
  });
});
