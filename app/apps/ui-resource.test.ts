import { describe, expect, it } from 'vitest';
import { MAX_APP_HTML_BYTES } from '../../shared/domain/app-ui';
import { HostError } from '../../shared/result';
import { listedUiMeta, parseUiResourceMeta, parseUiResourceRead } from './ui-resource';

const URI = 'ui://get-time/mcp-app.html';
const MIME = 'text/html;profile=mcp-app';
const read = (result: unknown) => parseUiResourceRead('basic', URI, result);

function refusal(run: () => unknown): HostError {
  try {
    run();
  } catch (error) {
    if (error instanceof HostError) return error;
    throw new Error(`expected a HostError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a HostError, nothing was thrown');
}

describe('parseUiResourceRead', () => {
  it('takes the HTML of the item for the URI, as text or base64, with its _meta.ui', () => {
    expect(read({ contents: [{ uri: URI, mimeType: MIME, text: '<p>hi</p>' }] })).toEqual({ html: '<p>hi</p>' });
    const blob = Buffer.from('<p>héllo</p>', 'utf8').toString('base64');
    expect(
      read({
        contents: [
          { uri: 'ui://other', mimeType: MIME, text: 'x' },
          { uri: URI, mimeType: 'Text/HTML; profile=mcp-app', blob },
        ],
      }),
    ).toEqual({ html: '<p>héllo</p>' });
    const withMeta = read({
      contents: [
        {
          uri: URI,
          mimeType: MIME,
          text: '<p/>',
          _meta: {
            ui: {
              csp: { connectDomains: ['https://api.example.com'] },
              permissions: { camera: {}, teleport: {} },
              prefersBorder: false,
            },
          },
        },
      ],
    });
    expect(withMeta).toEqual({
      html: '<p/>',
      meta: { csp: { connectDomains: ['https://api.example.com'] }, permissions: ['camera'], prefersBorder: false },
    });
  });

  it('refuses junk with a HostError that says what is wrong, never a crash', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /holds no content/],
      ['<html>', /holds no content/],
      [{ contents: 'x' }, /holds no content/],
      [{ contents: [] }, /holds no content/],
      [{ contents: Array.from({ length: 21 }, () => ({ uri: URI, mimeType: MIME, text: 'x' })) }, /21 items/],
      [
        {
          contents: [
            { uri: 'ui://a', mimeType: MIME, text: 'x' },
            { uri: 'ui://b', mimeType: MIME, text: 'y' },
          ],
        },
        /none of the 2 items/,
      ],
      [{ contents: [42] }, /none of the 1 items/],
      [
        { contents: [{ uri: URI, mimeType: 'text/html', text: '<p/>' }] },
        /MIME type is "text\/html", not text\/html;profile=mcp-app/,
      ],
      [{ contents: [{ uri: URI, text: '<p/>' }] }, /MIME type is none/],
      [{ contents: [{ uri: URI, mimeType: MIME }] }, /neither text nor a blob/],
      [{ contents: [{ uri: URI, mimeType: MIME, text: 12 }] }, /neither text nor a blob/],
      [{ contents: [{ uri: URI, mimeType: MIME, text: '   ' }] }, /is empty/],
      [{ contents: [{ uri: URI, mimeType: MIME, blob: 'not base64!' }] }, /not base64/],
      [
        { contents: [{ uri: URI, mimeType: MIME, blob: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64') }] },
        /not UTF-8/,
      ],
      [
        { contents: [{ uri: URI, mimeType: MIME, text: 'x'.repeat(MAX_APP_HTML_BYTES + 1) }] },
        /5\.0 MB; Berth shows at most 5\.0 MB/,
      ],
      [
        { contents: [{ uri: URI, mimeType: MIME, blob: 'QUFB'.repeat(MAX_APP_HTML_BYTES / 3 + 1) }] },
        /Berth shows at most 5\.0 MB/,
      ],
      [
        { contents: [{ uri: URI, mimeType: MIME, text: '<p/>', _meta: { ui: 'strict' } }] },
        /_meta\.ui is "strict", not an object/,
      ],
    ];
    for (const [result, message] of cases) {
      const error = refusal(() => read(result));
      expect(error.code).toBe('SERVER_ERROR');
      expect(error.message).toContain(`server 'basic' sent an app UI (${URI}) that Berth cannot show`);
      expect(error.message).toMatch(message);
    }
  });
});

describe('parseUiResourceMeta', () => {
  const meta = (raw: unknown) => parseUiResourceMeta('basic', URI, raw);

  it('defaults to no network and no permissions', () => {
    expect(meta({})).toEqual({ csp: {}, permissions: [] });
    expect(meta({ permissions: ['microphone', 'clipboardWrite', 'root', 'microphone'] })).toEqual({
      csp: {},
      permissions: ['microphone', 'clipboardWrite'],
    });
    expect(meta({ prefersBorder: 'yes' })).toEqual({ csp: {}, permissions: [] });
  });

  it('refuses a CSP whose entries could add directives, or that is not lists of strings', () => {
    for (const bad of [
      "https://a.example; script-src 'unsafe-eval'",
      'https://a.example https://b.example',
      "'self'",
      '',
      'https://a.example,https://b.example',
    ]) {
      expect(refusal(() => meta({ csp: { connectDomains: [bad] } })).code).toBe('SERVER_ERROR');
    }
    expect(refusal(() => meta({ csp: { connectDomains: 'https://a.example' } })).message).toMatch(
      /_meta\.ui\.csp is malformed \(connectDomains:/,
    );
    expect(
      refusal(() => meta({ csp: { resourceDomains: Array.from({ length: 51 }, (_, i) => `https://${i}.example`) } }))
        .code,
    ).toBe('SERVER_ERROR');
    expect(refusal(() => meta({ permissions: 'camera' })).message).toMatch(/permissions is "camera", not an object/);
    expect(
      meta({
        csp: {
          connectDomains: ['https://api.example.com', 'wss://*.example.com:8443'],
          resourceDomains: ['https://cdn.example.com/path'],
        },
      }).csp,
    ).toEqual({
      connectDomains: ['https://api.example.com', 'wss://*.example.com:8443'],
      resourceDomains: ['https://cdn.example.com/path'],
    });
  });

  it('finds a resource’s _meta.ui in a resources/list page', () => {
    const page = {
      resources: [
        { uri: 'ui://other', _meta: { ui: { prefersBorder: true } } },
        { uri: URI, name: 'x', _meta: { ui: { permissions: { camera: {} } } } },
      ],
    };
    expect(listedUiMeta(page, URI)).toEqual({ permissions: { camera: {} } });
    expect(listedUiMeta({ resources: 'junk' }, URI)).toBeUndefined();
    expect(listedUiMeta(null, URI)).toBeUndefined();
  });
});
