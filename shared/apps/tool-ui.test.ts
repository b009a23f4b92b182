import { describe, expect, it } from 'vitest';
import { callableByApp, toolUiOf, visibleToModel } from './tool-ui';

describe('toolUiOf (a tool’s _meta.ui)', () => {
  it('reads the resource URI from _meta.ui, or from the legacy flat key', () => {
    expect(toolUiOf({ ui: { resourceUri: 'ui://get-time/mcp-app.html' } })).toEqual({
      resourceUri: 'ui://get-time/mcp-app.html',
    });
    expect(toolUiOf({ 'ui/resourceUri': 'ui://legacy/app.html' })).toEqual({ resourceUri: 'ui://legacy/app.html' });
    // Both present: the nested one wins.
    expect(toolUiOf({ ui: { resourceUri: 'ui://new' }, 'ui/resourceUri': 'ui://old' })).toEqual({
      resourceUri: 'ui://new',
    });
  });

  it('accepts only ui:// URIs of sane length', () => {
    for (const uri of [
      'https://evil.example/app.html',
      'file:///etc/passwd',
      'ui://',
      'UI://x',
      `ui://${'a'.repeat(2000)}`,
      42,
      null,
      ['ui://x'],
    ]) {
      expect(toolUiOf({ ui: { resourceUri: uri } })).toBeUndefined();
    }
    // A bad nested URI does not hide a good legacy one.
    expect(toolUiOf({ ui: { resourceUri: 'javascript:alert(1)' }, 'ui/resourceUri': 'ui://ok' })).toEqual({
      resourceUri: 'ui://ok',
    });
  });

  it('keeps the known audiences of _meta.ui.visibility and nothing else', () => {
    expect(toolUiOf({ ui: { resourceUri: 'ui://a', visibility: ['app'] } })).toEqual({
      resourceUri: 'ui://a',
      visibility: ['app'],
    });
    expect(toolUiOf({ ui: { visibility: ['model', 'admin', 7, 'model'] } })).toEqual({ visibility: ['model'] });
    expect(toolUiOf({ ui: { visibility: [] } })).toEqual({ visibility: [] });
    // Not a list: as if absent.
    expect(toolUiOf({ ui: { resourceUri: 'ui://a', visibility: 'app' } })).toEqual({ resourceUri: 'ui://a' });
  });

  it('is undefined for tools without UI metadata, and for junk', () => {
    for (const meta of [
      undefined,
      null,
      'ui',
      [],
      {},
      { ui: 'ui://x' },
      { ui: null },
      { other: { resourceUri: 'ui://x' } },
    ])
      expect(toolUiOf(meta)).toBeUndefined();
  });
});

describe('visibility routing', () => {
  it('offers a tool to the model and to apps unless its visibility leaves one out', () => {
    expect([visibleToModel({}), callableByApp({})]).toEqual([true, true]);
    expect([
      visibleToModel({ ui: { resourceUri: 'ui://a' } }),
      callableByApp({ ui: { resourceUri: 'ui://a' } }),
    ]).toEqual([true, true]);
    expect([visibleToModel({ ui: { visibility: ['app'] } }), callableByApp({ ui: { visibility: ['app'] } })]).toEqual([
      false,
      true,
    ]);
    expect([
      visibleToModel({ ui: { visibility: ['model'] } }),
      callableByApp({ ui: { visibility: ['model'] } }),
    ]).toEqual([true, false]);
    expect([visibleToModel({ ui: { visibility: [] } }), callableByApp({ ui: { visibility: [] } })]).toEqual([
      false,
      false,
    ]);
  });
});
