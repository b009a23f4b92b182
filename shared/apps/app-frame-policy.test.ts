import { describe, expect, it } from 'vitest';
import { buildAllowAttribute, buildSandboxAttribute, readAppPermissions } from './app-frame-policy';

describe('readAppPermissions', () => {
  it("reads the spec's object form and Berth's list form", () => {
    expect(readAppPermissions({ camera: {}, clipboardWrite: {} })).toEqual({
      permissions: ['camera', 'clipboardWrite'],
      refused: [],
    });
    expect(readAppPermissions(['microphone', 'geolocation', 'microphone'])).toEqual({
      permissions: ['microphone', 'geolocation'],
      refused: [],
    });
    expect(readAppPermissions(undefined)).toEqual({ permissions: [], refused: [] });
  });

  it('does not grant a permission set to false or null', () => {
    expect(readAppPermissions({ camera: false, microphone: null, geolocation: undefined })).toEqual({
      permissions: [],
      refused: [],
    });
  });

  it('refuses names that are not app permissions, whatever they look like', () => {
    const hostile = [
      'usb',
      'camera *',
      "camera 'src'",
      'camera; usb',
      'fullscreen',
      'clipboard-read',
      'display-capture',
      '__proto__',
      'toString',
    ];
    expect(readAppPermissions(hostile)).toEqual({ permissions: [], refused: hostile });
    expect(readAppPermissions(Object.fromEntries(hostile.map((name) => [name, {}])))).toEqual({
      permissions: [],
      refused: hostile,
    });
    expect(readAppPermissions('camera')).toEqual({ permissions: [], refused: ['camera'] });
    expect(readAppPermissions([{ camera: {} }]).permissions).toEqual([]);
  });
});

describe('buildAllowAttribute', () => {
  it('is empty when nothing was granted', () => {
    expect(buildAllowAttribute([])).toBe('');
  });

  it('names each granted feature once', () => {
    expect(buildAllowAttribute(['camera', 'microphone', 'geolocation', 'clipboardWrite', 'camera'])).toBe(
      'camera; microphone; geolocation; clipboard-write',
    );
  });

  it('ignores anything that is not an app permission (a cast from untyped input)', () => {
    expect(
      buildAllowAttribute(['usb', 'camera *; microphone'] as unknown as Parameters<typeof buildAllowAttribute>[0]),
    ).toBe('');
  });
});

describe('buildSandboxAttribute', () => {
  it('defaults to scripts only: no forms', () => {
    expect(buildSandboxAttribute(undefined)).toEqual({ sandbox: 'allow-scripts', refused: [] });
    expect(buildSandboxAttribute('allow-scripts allow-forms')).toEqual({
      sandbox: 'allow-scripts',
      refused: ['allow-forms'],
    });
  });

  it('lets an override narrow the default', () => {
    expect(buildSandboxAttribute('allow-scripts')).toEqual({ sandbox: 'allow-scripts', refused: [] });
    expect(buildSandboxAttribute('')).toEqual({ sandbox: '', refused: [] });
  });

  it('never widens it', () => {
    const wide =
      'allow-scripts allow-same-origin allow-top-navigation allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads';
    expect(buildSandboxAttribute(wide)).toEqual({
      sandbox: 'allow-scripts',
      refused: [
        'allow-same-origin',
        'allow-top-navigation',
        'allow-top-navigation-by-user-activation',
        'allow-popups',
        'allow-popups-to-escape-sandbox',
        'allow-modals',
        'allow-downloads',
      ],
    });
    expect(buildSandboxAttribute(42)).toEqual({ sandbox: 'allow-scripts', refused: ['a number, not a string'] });
  });
});
