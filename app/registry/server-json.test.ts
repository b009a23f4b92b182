import { describe, expect, it } from 'vitest';
import { cleanText, parseServerList, parseServerResponse, safeLink } from './server-json';

const entry = (
  server: Record<string, unknown>,
  meta: Record<string, unknown> = { status: 'active', isLatest: true },
) => ({
  server: { name: 'io.github.x/y', description: 'A server', version: '1.0.0', ...server },
  _meta: { 'io.modelcontextprotocol.registry/official': meta },
});

describe('registry answers are checked as untrusted', () => {
  it('strips control and bidi-override characters from every string', () => {
    expect(cleanText('line\nforged\u001b[31m \u202eevil\u0007')).toBe('lineforged[31m evil');
    const parsed = parseServerResponse(entry({ title: 'Ti\u0000tle', description: 'Real\r\n[berth] fake log line' }));
    expect(parsed.server.title).toBe('Title');
    expect(parsed.server.description).toBe('Real[berth] fake log line');
  });

  it('drops links that are not http(s) or carry credentials, keeping the entry', () => {
    expect(safeLink('javascript:alert(1)')).toBeUndefined();
    expect(safeLink('https://user:pw@example.com')).toBeUndefined();
    expect(safeLink('file:///etc/passwd')).toBeUndefined();
    expect(safeLink('https://example.com/x')).toBe('https://example.com/x');
    const parsed = parseServerResponse(
      entry({ websiteUrl: 'javascript:alert(1)', repository: { url: 'data:text/html,hi', source: 'github' } }),
    );
    expect(parsed.server.websiteUrl).toBeUndefined();
    expect(parsed.server.repository?.url).toBeUndefined();
  });

  it('skips list entries that do not fit (bad name, oversized text, wrong types) and keeps the rest', () => {
    const list = parseServerList({
      servers: [
        entry({}),
        entry({ name: 'no-slash' }),
        entry({ description: 'x'.repeat(5_000) }),
        entry({ packages: 'not an array' }),
        { server: null },
        'garbage',
        entry({
          name: 'io.github.x/z',
          packages: Array.from({ length: 51 }, () => ({
            registryType: 'npm',
            identifier: 'a',
            transport: { type: 'stdio' },
          })),
        }),
      ],
      metadata: { nextCursor: 'abc', count: 7 },
    });
    expect(list.servers.map((server) => server.server.name)).toEqual(['io.github.x/y']);
    expect(list.skipped).toBe(6);
    expect(list.nextCursor).toBe('abc');
  });

  it('refuses a frame that is not a server list, and treats an empty cursor as the end', () => {
    expect(() => parseServerList({ items: [] })).toThrow(/not a server list/);
    expect(() => parseServerList({ servers: Array.from({ length: 501 }, () => ({})) })).toThrow(/not a server list/);
    expect(parseServerList({ servers: [], metadata: { nextCursor: '' } }).nextCursor).toBeUndefined();
    expect(parseServerList({ servers: [], metadata: { nextCursor: null } }).nextCursor).toBeUndefined();
  });

  it('tolerates unknown statuses and formats without trusting them', () => {
    const parsed = parseServerResponse(
      entry(
        {
          packages: [
            {
              registryType: 'npm',
              identifier: 'a',
              transport: { type: 'stdio' },
              environmentVariables: [{ name: 'K', format: 'weird' }],
            },
          ],
        },
        { status: 'exploded', isLatest: 'yes' },
      ),
    );
    expect(parsed._meta?.['io.modelcontextprotocol.registry/official']).toEqual({});
    expect(parsed.server.packages?.[0]?.environmentVariables?.[0]?.format).toBeUndefined();
  });

  it('says which field broke a single entry', () => {
    expect(() => parseServerResponse({ server: { name: 'io.github.x/y', version: '1' } })).toThrow(/description/);
  });
});
