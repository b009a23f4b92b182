import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../e2e/fake-llm/fake-openai';
import type { LlmStreamRequest } from './llm-provider';
import { OpenAiCompatibleClient } from './openai-compatible';

// Connection-level failures, over real sockets: nothing listening, a server
// that never answers, and URLs that answer but not as an OpenAI-compatible API.

const ASK: LlmStreamRequest = { model: 'm', maxTokens: 64, messages: [{ role: 'user', content: 'hi' }] };
const NOT_COMPATIBLE =
  'this URL did not answer like an OpenAI-compatible API — check the base URL, it usually ends in /v1';

/** Binds `port` (0: any) and closes it again: nothing listens there afterwards. Undefined when the port is in use. */
async function closedPort(port = 0): Promise<number | undefined> {
  const server = createTcpServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return undefined;
  const address = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

const servers: Server[] = [];

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('OpenAiCompatibleClient when the server is not there or not what it seems', () => {
  it('nothing listening: says so with host and port, naming the preset', async () => {
    const port = await closedPort();
    const lmStudio = new OpenAiCompatibleClient({
      baseURL: `http://127.0.0.1:${port}/v1`,
      presetName: 'LM Studio',
      maxRetries: 0,
    });
    await expect(lmStudio.check()).rejects.toMatchObject({
      kind: 'network',
      message: `Could not connect: nothing is listening at 127.0.0.1:${port} — is LM Studio running?`,
    });
    const custom = new OpenAiCompatibleClient({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    await expect(custom.stream(ASK)).rejects.toMatchObject({
      kind: 'network',
      message: `Could not connect: nothing is listening at 127.0.0.1:${port} — is the server running?`,
    });
  });

  it("nothing listening at Ollama's and LM Studio's usual ports: names them without a preset", async (context) => {
    const ollama = await closedPort(11434);
    const lmStudio = await closedPort(1234);
    if (ollama === undefined || lmStudio === undefined) context.skip();
    await expect(
      new OpenAiCompatibleClient({ baseURL: 'http://127.0.0.1:11434/v1', maxRetries: 0 }).check(),
    ).rejects.toThrow('nothing is listening at 127.0.0.1:11434 — is Ollama running?');
    await expect(
      new OpenAiCompatibleClient({ baseURL: 'http://localhost:1234/v1', maxRetries: 0 }).listModels(),
    ).rejects.toThrow(/nothing is listening at localhost:1234 — is LM Studio running\?$/);
  });

  it('a server that never answers: a timeout, for the check and for chat', async () => {
    const url = await serve(() => undefined);
    const client = new OpenAiCompatibleClient({ baseURL: url, maxRetries: 0, timeoutMs: 300, checkTimeoutMs: 300 });
    await expect(client.check()).rejects.toMatchObject({
      kind: 'timeout',
      message: `The request to ${url} timed out after 0.3 s. A local model may still be loading: try again.`,
    });
    await expect(client.stream(ASK)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('a base URL without /v1 (Ollama answers "404 page not found" as text): says to check the base URL', async () => {
    const fake = await FakeOpenAi.start({ models: ['m'] });
    try {
      fake.script([{ text: 'never sent' }]);
      const root = fake.url.replace(/\/v1$/, '');
      const client = new OpenAiCompatibleClient({ baseURL: root, maxRetries: 0 });
      await expect(client.check()).rejects.toMatchObject({
        kind: 'not-found',
        message: `Unexpected answer from ${root}: ${NOT_COMPATIBLE}.`,
      });
      await expect(client.stream(ASK)).rejects.toMatchObject({
        kind: 'not-found',
        message: expect.stringContaining(NOT_COMPATIBLE),
      });
      expect(fake.pending).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('a web page, JSON that is no model list, or a stream of something else: the same advice', async () => {
    const html = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Open WebUI</title>');
    });
    const client = new OpenAiCompatibleClient({ baseURL: html, maxRetries: 0 });
    await expect(client.listModels()).rejects.toThrow(NOT_COMPATIBLE);
    await expect(client.stream(ASK)).rejects.toThrow(NOT_COMPATIBLE);

    const json = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok"}');
    });
    await expect(new OpenAiCompatibleClient({ baseURL: json, maxRetries: 0 }).check()).rejects.toThrow(NOT_COMPATIBLE);

    const garbled = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: this is not json\n\n');
    });
    await expect(new OpenAiCompatibleClient({ baseURL: garbled, maxRetries: 0 }).stream(ASK)).rejects.toThrow(
      NOT_COMPATIBLE,
    );

    const silent = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(': nothing here\n\n');
    });
    await expect(new OpenAiCompatibleClient({ baseURL: silent, maxRetries: 0 }).stream(ASK)).rejects.toThrow(
      NOT_COMPATIBLE,
    );
  });

  it('a proxy error page with a 502 is a server error, not the base URL', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html><body>Bad Gateway</body></html>');
    });
    await expect(new OpenAiCompatibleClient({ baseURL: url, maxRetries: 0 }).stream(ASK)).rejects.toMatchObject({
      kind: 'server',
      status: 502,
      message: '127.0.0.1 had an internal error (502: an HTML page). Retry in a moment.',
    });
  });

  it('a server that quotes the refused key back: the key never reaches the message', async () => {
    const url = await serve((request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${request.headers.authorization?.slice('Bearer '.length) ?? ''}.`,
            code: 'invalid_api_key',
          },
        }),
      );
    });
    const client = new OpenAiCompatibleClient({ baseURL: url, apiKey: 'sk-secret-123', maxRetries: 0 });
    await expect(client.check()).rejects.toMatchObject({
      kind: 'auth',
      message:
        '127.0.0.1 refused the request: the key was rejected (401: Incorrect API key provided: [the key].). Check the key in Settings.',
    });
    await expect(client.stream(ASK)).rejects.toThrow(/^(?!.*sk-secret-123).*the key was rejected/);
  });

  it('refuses a base URL that is not an http(s) URL', () => {
    expect(() => new OpenAiCompatibleClient({ baseURL: 'localhost:11434/v1' })).toThrow(
      "The base URL 'localhost:11434/v1' must start with http:// or https://, like http://127.0.0.1:11434/v1.",
    );
    expect(() => new OpenAiCompatibleClient({ baseURL: '127.0.0.1:11434' })).toThrow(
      "The base URL '127.0.0.1:11434' is not a URL: write it like http://127.0.0.1:11434/v1.",
    );
    // fetch cannot send those, and the URL is shown in messages.
    expect(() => new OpenAiCompatibleClient({ baseURL: 'http://me:hunter2@127.0.0.1:8000/v1' })).toThrow(
      'The base URL must not contain a user name or password: put the key in the key field.',
    );
    expect(() => new OpenAiCompatibleClient({ baseURL: 'not a url' })).toThrow(
      "The base URL 'not a url' is not a URL: write it like http://127.0.0.1:11434/v1.",
    );
  });
});
