import { describe, expect, it } from 'vitest';
import {
  buildAppCsp,
  buildProxyDocumentCsp,
  checkCspSource,
  proxyDocumentUrl,
  proxyOwnOrigins,
  readAppCsp,
  withCspMeta,
} from './app-csp';

const directivesOf = (policy: string): Map<string, string[]> =>
  new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );

describe('buildAppCsp: the default is no network', () => {
  it('allows inline script and style, data:/blob: media, and nothing else', () => {
    const { policy, refused } = buildAppCsp(undefined);
    expect(refused).toEqual([]);
    const d = directivesOf(policy);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'", "'unsafe-eval'"]);
    expect(d.get('style-src')).toEqual(["'unsafe-inline'"]);
    expect(d.get('img-src')).toEqual(['data:', 'blob:']);
    expect(d.get('font-src')).toEqual(['data:', 'blob:']);
    expect(d.get('media-src')).toEqual(['data:', 'blob:']);
    expect(d.get('connect-src')).toEqual(["'none'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(policy).not.toContain("'self'");
    expect(policy).not.toContain('frame-ancestors');
  });

  it('lets an app start workers from blob: only (pdf.js), never from a declared domain', () => {
    const d = directivesOf(buildAppCsp({ resourceDomains: ['https://cdn.example.com'] }).policy);
    expect(d.get('worker-src')).toEqual(['blob:']);
    // eval is the same code the app could inline, so it is allowed (three.js, pdf.js); it adds no network.
    expect(d.get('script-src')).toEqual(["'unsafe-inline'", "'unsafe-eval'", 'https://cdn.example.com']);
    expect(d.get('connect-src')).toEqual(["'none'"]);
  });

  it('treats empty lists like absent ones', () => {
    expect(buildAppCsp({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }).policy).toBe(
      buildAppCsp({}).policy,
    );
  });
});

describe('buildAppCsp: declared domains go to the spec directives', () => {
  it('maps each list to its directives', () => {
    const { policy, refused } = buildAppCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
      resourceDomains: ['https://cdn.example.com', 'https://*.cloudflare.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example.com/'],
    });
    expect(refused).toEqual([]);
    const d = directivesOf(policy);
    expect(d.get('connect-src')).toEqual(['https://api.example.com', 'wss://live.example.com:8443']);
    expect(d.get('script-src')).toEqual([
      "'unsafe-inline'",
      "'unsafe-eval'",
      'https://cdn.example.com',
      'https://*.cloudflare.com',
    ]);
    expect(d.get('style-src')).toEqual(["'unsafe-inline'", 'https://cdn.example.com', 'https://*.cloudflare.com']);
    for (const name of ['img-src', 'font-src', 'media-src']) {
      expect(d.get(name)).toEqual(['data:', 'blob:', 'https://cdn.example.com', 'https://*.cloudflare.com']);
    }
    expect(d.get('frame-src')).toEqual(['https://www.youtube.com']);
    expect(d.get('base-uri')).toEqual(['https://base.example.com']);
    expect(d.get('default-src')).toEqual(["'none'"]);
  });

  it('accepts plain http only on this machine, lower-cases and drops duplicates', () => {
    const { policy, refused } = buildAppCsp({
      connectDomains: ['http://localhost:3000', 'HTTP://127.0.0.1:9', 'http://localhost:3000', 'ws://127.0.0.1:8080'],
    });
    expect(refused).toEqual([]);
    expect(directivesOf(policy).get('connect-src')).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:9',
      'ws://127.0.0.1:8080',
    ]);
  });
});

describe('buildAppCsp: hostile sources are refused, never written into the policy', () => {
  const hostile = [
    "https://a.example.com; script-src 'unsafe-eval'",
    'https://a.example.com;script-src:*',
    'https://a.example.com,https://b.example.com',
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'unsafe-hashes'",
    "'self'",
    "'none'",
    "'nonce-abc'",
    "'sha256-abc'",
    "'strict-dynamic'",
    '*',
    'https://*',
    'https://*.com',
    'https://*.*.example.com',
    'https:',
    'https://',
    'data:',
    'data:text/html,hi',
    'blob:',
    'javascript:alert(1)',
    'filesystem:',
    'http://evil.example.com',
    'ws://evil.example.com',
    'http://192.168.1.10',
    'ftp://files.example.com',
    'https://user:pw@example.com',
    'https://example.com/path',
    'https://example.com?x=1',
    'https://example.com#frag',
    'https://example.com:99999',
    'https://example.com:*',
    'https://[::1]',
    'https://exa mple.com',
    'https://example.com\nscript-src *',
    'https://example.com\tx',
    'https://ex"ample.com',
    'https://ex`ample.com',
    'https://éxample.com',
    'https://-bad-.example.com',
    'https://example',
    'example.com',
    '*.example.com',
    '',
    'x'.repeat(600),
  ];

  it.each(hostile)('refuses %j', (value) => {
    const { policy, refused } = buildAppCsp({
      connectDomains: [value],
      resourceDomains: [value],
      frameDomains: [value],
      baseUriDomains: [value],
    });
    expect(refused).toHaveLength(4);
    expect(policy).toBe(buildAppCsp(undefined).policy);
  });

  it('keeps the good sources beside a refused one and says why the other was left out', () => {
    const { policy, refused } = buildAppCsp({
      connectDomains: ['https://ok.example.com', "https://x.example.com; script-src 'unsafe-eval'"],
    });
    expect(directivesOf(policy).get('connect-src')).toEqual(['https://ok.example.com']);
    expect(refused).toEqual([
      {
        list: 'connectDomains',
        value: "https://x.example.com; script-src 'unsafe-eval'",
        reason: expect.stringContaining('not allowed'),
      },
    ]);
  });

  it('refuses non-string entries and lists that are not lists (values the zod schema would not have let through)', () => {
    const csp = {
      connectDomains: [42, { toString: () => 'https://a.example.com' }],
      resourceDomains: 'https://a.example.com',
    } as unknown as Parameters<typeof buildAppCsp>[0];
    const { policy, refused } = buildAppCsp(csp);
    expect(policy).toBe(buildAppCsp(undefined).policy);
    expect(refused.map((entry) => entry.list)).toEqual(['connectDomains', 'connectDomains', 'resourceDomains']);
  });

  it('caps a list at 50 sources', () => {
    const many = Array.from({ length: 60 }, (_, index) => `https://h${index}.example.com`);
    const { policy, refused } = buildAppCsp({ connectDomains: many });
    expect(directivesOf(policy).get('connect-src')).toHaveLength(50);
    expect(refused).toEqual([
      { list: 'connectDomains', value: '10 more', reason: expect.stringContaining('at most 50') },
    ]);
  });

  it('only connect-src takes WebSocket schemes', () => {
    expect(checkCspSource('connectDomains', 'wss://live.example.com')).toEqual({ source: 'wss://live.example.com' });
    expect(checkCspSource('resourceDomains', 'wss://live.example.com')).toMatchObject({
      reason: expect.stringContaining('wss'),
    });
  });
});

describe('buildProxyDocumentCsp', () => {
  it("adds 'self' scripts and styles and frame-ancestors to the app's policy", () => {
    const { policy } = buildProxyDocumentCsp(
      { connectDomains: ['https://api.example.com'] },
      { frameAncestors: ['http://127.0.0.1:4000', 'berth://app'] },
    );
    const d = directivesOf(policy);
    expect(d.get('script-src')).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"]);
    expect(d.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(d.get('worker-src')).toEqual(['blob:']);
    expect(d.get('connect-src')).toEqual(['https://api.example.com']);
    expect(d.get('frame-ancestors')).toEqual(['http://127.0.0.1:4000', 'berth://app']);
  });

  it('never writes an ancestor that is not a bare origin', () => {
    const { policy } = buildProxyDocumentCsp(undefined, {
      frameAncestors: ["http://a; script-src 'unsafe-eval'", '*'],
    });
    expect(directivesOf(policy).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe("an app's CSP never names Berth's own origins", () => {
  const own = proxyOwnOrigins(['http://127.0.0.1:4000', 'http://localhost:4000'], ['http://127.0.0.1:4001']);

  it("refuses Berth's UI and bridge and the sandbox proxy in every scheme and loopback spelling, in every list", () => {
    const berth = [
      'http://127.0.0.1:4000',
      'http://localhost:4000',
      'ws://127.0.0.1:4000',
      'ws://localhost:4000/',
      'WS://LOCALHOST:4000',
      'HTTP://127.0.0.1:4000/',
      'wss://localhost:4000',
      'https://127.0.0.1:4000',
      'https://0.0.0.0:4000',
    ];
    const proxy = ['http://127.0.0.1:4001', 'http://localhost:4001/', 'ws://LocalHost:4001', 'https://127.0.0.1:4001'];
    const { policy, refused } = buildAppCsp(
      {
        connectDomains: [...berth, ...proxy, 'http://localhost:4002', 'https://api.example.com'],
        resourceDomains: ['http://localhost:4000', 'http://127.0.0.1:4001/'],
        frameDomains: ['http://LOCALHOST:4001'],
      },
      { ownOrigins: own },
    );
    const d = directivesOf(policy);
    expect(d.get('connect-src')).toEqual(['http://localhost:4002', 'https://api.example.com']);
    expect(d.get('script-src')).toEqual(["'unsafe-inline'", "'unsafe-eval'"]);
    expect(d.get('frame-src')).toEqual(["'none'"]);
    expect(refused).toHaveLength(berth.length + proxy.length + 3);
    expect(refused.find((r) => r.value === 'ws://localhost:4000/')).toEqual({
      list: 'connectDomains',
      value: 'ws://localhost:4000/',
      reason: "it is Berth's own window and bridge (http://127.0.0.1:4000), which an app may never reach",
    });
    expect(refused.find((r) => r.list === 'frameDomains')?.reason).toBe(
      "it is the app sandbox's own page (http://127.0.0.1:4001), which an app may never reach",
    );
  });

  it('keeps other ports and hosts, and a port-less source (it means the default port only)', () => {
    const { refused } = buildAppCsp(
      { connectDomains: ['http://localhost', 'https://127.0.0.1:40001', 'https://*.example.com:4000'] },
      { ownOrigins: own },
    );
    expect(refused).toEqual([]);
  });

  it('refuses a wildcard that covers an own origin on a named host', () => {
    const { refused } = buildAppCsp(
      { connectDomains: ['https://*.example.com:8443'] },
      { ownOrigins: proxyOwnOrigins(['https://berth.example.com:8443'], []) },
    );
    expect(refused).toMatchObject([{ reason: expect.stringContaining("Berth's own window and bridge") }]);
  });

  it('applies to the proxy document header too', () => {
    const { policy } = buildProxyDocumentCsp(
      { connectDomains: ['ws://localhost:4000'] },
      { frameAncestors: ['http://127.0.0.1:4000'], ownOrigins: own },
    );
    expect(directivesOf(policy).get('connect-src')).toEqual(["'none'"]);
  });
});

describe('readAppCsp', () => {
  it('keeps the known lists and ignores other keys', () => {
    expect(readAppCsp({ connectDomains: ['https://a.example.com'], future: true })).toEqual({
      connectDomains: ['https://a.example.com'],
    });
    expect(readAppCsp(undefined)).toEqual({});
    expect(readAppCsp(null)).toEqual({});
  });

  it.each([
    ['a string', 'https://a.example.com'],
    ['a list', []],
    ['a list of numbers', { connectDomains: [1] }],
    ['a string list value', { frameDomains: 'https://a.example.com' }],
  ])('refuses %s', (_label, value) => {
    expect(() => readAppCsp(value)).toThrow(/app CSP/);
  });
});

describe('proxyDocumentUrl', () => {
  it("carries the declared CSP in the query and keeps the proxy's own URL", () => {
    const url = new URL(
      proxyDocumentUrl('http://127.0.0.1:5000/proxy.html', { connectDomains: ['https://a.example.com'] }),
    );
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:5000/proxy.html');
    expect(JSON.parse(url.searchParams.get('csp') ?? '')).toEqual({ connectDomains: ['https://a.example.com'] });
  });
});

describe('withCspMeta', () => {
  const meta = '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;">'.replace(
    '&#39;none&#39;',
    "'none'",
  );

  it('puts the policy right after the doctype', () => {
    expect(withCspMeta('<!DOCTYPE html><html><head><title>x</title></head></html>', "default-src 'none'")).toBe(
      `<!DOCTYPE html>${meta}<html><head><title>x</title></head></html>`,
    );
  });

  it('puts it first when there is no doctype, or when something precedes the doctype', () => {
    expect(withCspMeta('<html><head></head></html>', "default-src 'none'")).toBe(`${meta}<html><head></head></html>`);
    // `<!-->` is a whole comment to an HTML parser: anything looking "after" it could already be in the body.
    const tricky = '<!--><!doctype html>--><head></head>';
    expect(withCspMeta(tricky, "default-src 'none'")).toBe(`${meta}${tricky}`);
  });

  it("puts what goes after the policy (the violation reporter) before the app's own markup", () => {
    expect(withCspMeta('<!doctype html><script>app()</script>', "default-src 'none'", '<script>r()</script>')).toBe(
      `<!doctype html>${meta}<script>r()</script><script>app()</script>`,
    );
  });

  it('escapes the attribute', () => {
    expect(withCspMeta('', 'a"b<c>&')).toBe(
      '<meta http-equiv="Content-Security-Policy" content="a&quot;b&lt;c&gt;&amp;">',
    );
  });
});
