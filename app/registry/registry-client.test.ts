import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, RegistryClient, RegistryRequestError, registryUrl } from './registry-client';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"servers":[]}');
    if (req.url === '/huge') {
      // No content-length: the limit must hold while the body streams.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const push = (): void => {
        while (sent <= MAX_RESPONSE_BYTES + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      return push();
    }
    if (req.url === '/declared-huge')
      return res.writeHead(200, { 'content-length': String(MAX_RESPONSE_BYTES + 1) }).end();
    if (req.url === '/html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>captive portal</html>');
    if (req.url === '/error')
      return res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'boom\n[berth] forged line\u001b[2J' }));
    if (req.url === '/hang') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
});

describe('RegistryClient', () => {
  const client = new RegistryClient({ timeoutMs: 500 });

  it('builds URLs under a base path with the query encoded', () => {
    expect(
      registryUrl('https://r.example.com/sub/', '/v0.1/servers', { search: 'a b', cursor: undefined, limit: '20' }),
    ).toBe('https://r.example.com/sub/v0.1/servers?search=a+b&limit=20');
  });

  it('reads JSON', async () => {
    await expect(client.getJson(`${base}/ok`)).resolves.toEqual({ servers: [] });
  });

  it('stops reading a body past the size limit, declared or streamed', async () => {
    await expect(client.getJson(`${base}/declared-huge`)).rejects.toThrow(/more than a registry page can be/);
    await expect(new RegistryClient({ timeoutMs: 20_000 }).getJson(`${base}/huge`)).rejects.toThrow(
      /more than \d+ bytes/,
    );
  });

  it('says what went wrong: not JSON, an error status with its cleaned text, a timeout, a cancel, a refused connection', async () => {
    await expect(client.getJson(`${base}/html`)).rejects.toThrow(/is not JSON/);
    const failure = await client.getJson(`${base}/error`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistryRequestError);
    expect((failure as RegistryRequestError).status).toBe(500);
    expect((failure as Error).message).toBe(`127.0.0.1:${new URL(base).port} answered 500: boom[berth] forged line[2J`);
    await expect(client.getJson(`${base}/hang`)).rejects.toThrow(/did not answer within 1 s/);
    const controller = new AbortController();
    const cancelled = client.getJson(`${base}/hang`, controller.signal);
    controller.abort();
    await expect(cancelled).rejects.toThrow(/cancelled/);
    const closed = createServer();
    await new Promise<void>((resolveListen) => closed.listen(0, '127.0.0.1', resolveListen));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolveClose) => closed.close(() => resolveClose()));
    await expect(client.getJson(`http://127.0.0.1:${port}/v0.1/servers`)).rejects.toThrow(
      `cannot reach 127.0.0.1:${port} (connection refused)`,
    );
  });
});
