import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

// What the fake model APIs (fake-anthropic.ts, fake-openai.ts) share: a
// loopback HTTP server, the request log, a queue of scripted turns, and the
// control endpoints for tests that run Berth as another process:
// `POST /__fake/script` `{ turns, append? }`, `GET /__fake/requests`,
// `POST /__fake/reset`. Each fake speaks its own API on top.

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** A scripted turn, or a function that picks the answer from the request. */
export type TurnSource<Turn, Recorded> = Turn | ((request: Recorded) => Turn | Promise<Turn>);

/** A fake API on 127.0.0.1 that answers requests with scripted turns and records them. */
export abstract class LoopbackFake<Turn, Recorded> {
  /** Every API request, in order (rejected ones included). */
  readonly requests: Recorded[] = [];
  protected queue: Array<TurnSource<Turn, Recorded>> = [];
  private readonly server: Server;
  private readonly scriptSchema: z.ZodType<{ turns: Turn[]; append?: boolean | undefined }>;
  private waiters: Array<() => void> = [];
  /** Told of each request as it starts to arrive (its headers read, its body not yet): a bench's clock. */
  requestArrived?: (path: string) => void;

  protected constructor(
    /** Named in errors (`fake-openai: …`). */
    private readonly name: string,
    turnSchema: z.ZodType<Turn>,
  ) {
    this.scriptSchema = z.object({ turns: z.array(turnSchema), append: z.boolean().optional() });
    this.server = createServer((request, response) => {
      this.requestArrived?.(request.url ?? '');
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent) this.sendFailure(response, `${this.name} failed: ${String(error)}`);
        else response.destroy();
      });
    });
  }

  /** Answer one API request (anything but /__fake/). */
  protected abstract handle(path: string, request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** A 500 in the API's own error shape. */
  protected abstract sendFailure(response: ServerResponse, message: string): void;

  protected async listen(port = 0): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  protected get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Replace what the next requests get, one turn per request. */
  script(turns: Array<TurnSource<Turn, Recorded>>): void {
    this.queue = [...turns];
  }

  /** Add turns after the ones still queued. */
  append(turns: Array<TurnSource<Turn, Recorded>>): void {
    this.queue.push(...turns);
  }

  /** Scripted turns not used yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Forget the script and the recorded requests (subclasses restart their counters too). */
  reset(): void {
    this.queue = [];
    this.requests.length = 0;
  }

  /** Resolves once at least `count` requests have arrived. */
  async waitForRequests(count: number, timeoutMs = 20_000): Promise<Recorded[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`${this.name}: waited ${timeoutMs} ms for ${count} requests, got ${this.requests.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.requests.slice(0, count);
  }

  /** Stop listening and drop open connections (held streams included). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Log a request and wake whoever waits for it. */
  protected record(request: Recorded): void {
    this.requests.push(request);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** The next scripted turn (or the fallback), resolved against the request; undefined when there is none. */
  protected async nextTurn(
    request: Recorded,
    fallback: TurnSource<Turn, Recorded> | undefined,
  ): Promise<Turn | undefined> {
    const source = this.queue.shift() ?? fallback;
    if (source === undefined) return undefined;
    return typeof source === 'function' ? (source as (request: Recorded) => Turn | Promise<Turn>)(request) : source;
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (!path.startsWith('/__fake/')) return this.handle(path, request, response);
    if (path === '/__fake/requests' && request.method === 'GET')
      return sendJson(response, 200, { requests: this.requests });
    if (path === '/__fake/reset' && request.method === 'POST') {
      this.reset();
      return sendJson(response, 200, { ok: true });
    }
    if (path === '/__fake/script' && request.method === 'POST') {
      let raw: unknown;
      try {
        raw = JSON.parse(await readBody(request));
      } catch {
        return sendJson(response, 400, { ok: false, error: 'body is not JSON' });
      }
      const parsed = this.scriptSchema.safeParse(raw);
      if (!parsed.success) return sendJson(response, 400, { ok: false, error: z.prettifyError(parsed.error) });
      if (parsed.data.append === true) this.append(parsed.data.turns);
      else this.script(parsed.data.turns);
      return sendJson(response, 200, { ok: true, queued: this.queue.length });
    }
    return sendJson(response, 404, { ok: false, error: `unknown control endpoint ${request.method ?? '?'} ${path}` });
  }
}
