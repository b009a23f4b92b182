import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, type RawData } from 'ws';
import { MAX_PAYLOAD_BYTES, startBrowserServer, type BrowserServer } from '../../app/bridge/ws-server';
import { createHost } from '../../app/host';
import type { Host } from '../../app/host/host-types';
import {
  contract,
  isMethodName,
  type MethodName,
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from '../../shared/contract';
import { ERROR_CODES, type Result } from '../../shared/result';
import {
  createRng,
  deepValue,
  describePayload,
  fuzzCase,
  int,
  pick,
  READ_ONLY_METHODS,
  wouldRun,
  type Rng,
} from './fuzz-payloads';

/**
 * Throws random and malformed payloads at every contract method through a
 * real host, directly and over the real browser-mode WebSocket: every reply
 * must be a typed Failure or a schema-valid Success, Berth must stay up, and
 * nothing may change. Replay a failure with BERTH_FUZZ_SEED=<seed>.
 */

const SEED = Number(process.env.BERTH_FUZZ_SEED ?? Date.now() % 2_147_483_647);
const DISPATCH_CASES = 1_200;
const WS_CASES = 260;
const CALL_TIMEOUT_MS = 5_000;
const CONFIG_TEXT = '{\n  // fuzz: no servers\n  "mcpServers": {}\n}\n';

let dir: string;
let host: Host;
let server: BrowserServer;
/** What the browser-mode server reported with no caller to answer; checked, not ignored. */
const serverErrors: string[] = [];

beforeAll(async () => {
  console.log(`bridge fuzz seed: ${SEED} (replay with BERTH_FUZZ_SEED=${SEED})`);
  dir = await mkdtemp(join(tmpdir(), 'berth-fuzz-'));
  await mkdir(join(dir, 'static'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>fuzz</title>');
  await writeFile(join(dir, 'config.json'), CONFIG_TEXT);
  // No ANTHROPIC_API_KEY: nothing the fuzzer sends can reach a model.
  host = await createHost({ configDir: dir, shell: 'browser', env: { PATH: process.env.PATH ?? '' } });
  server = await startBrowserServer({
    host,
    staticDir: join(dir, 'static'),
    onError: (error) => serverErrors.push(String(error)),
  });
});

afterAll(async () => {
  await server?.close();
  await host?.shutdown();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type Outcome<T> = { done: true; value: T } | { done: false };

async function withTimeout<T>(promise: Promise<T>, ms = CALL_TIMEOUT_MS): Promise<Outcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Outcome<T>>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout({ done: false }), ms);
  });
  try {
    return await Promise.race([promise.then((value): Outcome<T> => ({ done: true, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What is wrong with a reply, or undefined when it is a typed Failure (not INTERNAL) or a valid Success. */
function replyProblem(method: unknown, reply: unknown): string | undefined {
  if (typeof reply !== 'object' || reply === null) return `reply is not an object: ${describePayload(reply)}`;
  const result = reply as Partial<Result<unknown>> & Record<string, unknown>;
  if (result.ok === false) {
    if (!(ERROR_CODES as readonly unknown[]).includes(result.code))
      return `unknown error code ${describePayload(result.code)}`;
    if (result.code === 'INTERNAL') return `INTERNAL failure (a host bug): ${String(result.message)}`;
    if (typeof result.message !== 'string' || result.message.length === 0) return 'failure without a message';
    if (result.path !== undefined && typeof result.path !== 'string') return 'failure with a non-string path';
    return undefined;
  }
  if (result.ok !== true) return `reply is neither ok nor failed: ${describePayload(reply)}`;
  if (!isMethodName(method)) return `success for a method outside the contract: ${describePayload(method)}`;
  if (!READ_ONLY_METHODS.has(method)) return `a mutating method ran: ${method}`;
  const checked = contract[method].output.safeParse(result.value);
  return checked.success ? undefined : `success value breaks the ${method} output schema: ${checked.error.message}`;
}

async function snapshot(): Promise<string> {
  const reads = ['servers.list', 'chat.list', 'consent.policies', 'settings.get', 'config.status'];
  const values: unknown[] = [];
  for (const method of reads) values.push(await host.dispatch(method, {}));
  values.push(await readFile(join(dir, 'config.json'), 'utf8'));
  return JSON.stringify(values, null, 1);
}

async function expectBerthUp(): Promise<void> {
  expect(await host.dispatch('app.info', {})).toMatchObject({ ok: true, value: { shell: 'browser', configDir: dir } });
}

describe('bridge fuzz', () => {
  it(`answers ${DISPATCH_CASES} malformed calls through host.dispatch with typed results and changes nothing`, async () => {
    const rng = createRng(SEED);
    const before = await snapshot();
    const problems: string[] = [];
    let sent = 0;
    let skipped = 0;
    const methodsHit = new Set<unknown>();
    let index = 0;
    /** Sends one case unless it is a valid call of a mutating method; whether it was sent. */
    const send = async ({ method, input }: { method: unknown; input: unknown }): Promise<boolean> => {
      index += 1;
      if (wouldRun(method, input) && !READ_ONLY_METHODS.has(method)) {
        skipped += 1;
        return false;
      }
      sent += 1;
      methodsHit.add(method);
      let outcome: Outcome<unknown>;
      try {
        outcome = await withTimeout(host.dispatch(method, input));
      } catch (error) {
        problems.push(`#${index} ${describePayload(method)} threw: ${String(error)}`);
        return true;
      }
      const problem = outcome.done ? replyProblem(method, outcome.value) : `no reply within ${CALL_TIMEOUT_MS} ms`;
      if (problem) problems.push(`#${index} ${describePayload(method)} ${describePayload(input)}: ${problem}`);
      return true;
    };
    while (sent < DISPATCH_CASES) await send(fuzzCase(rng));
    // Random picks leave a method out now and then (about one run in twenty with ~150 methods); each method the
    // draw missed gets cases of its own until one is sent, so every method is fuzzed whatever the seed.
    for (const name of Object.keys(contract) as MethodName[]) {
      for (let attempt = 0; attempt < 60 && !methodsHit.has(name); attempt += 1) await send(fuzzCase(rng, name));
    }
    console.log(`dispatch fuzz: ${sent} calls sent, ${skipped} valid mutating inputs skipped`);

    expect(problems, `seed ${SEED}`).toEqual([]);
    for (const name of Object.keys(contract))
      expect(methodsHit.has(name), `${name} never fuzzed (seed ${SEED})`).toBe(true);
    expect(Object.prototype).not.toHaveProperty('polluted');
    await expectBerthUp();
    expect(await snapshot()).toBe(before);
  });

  it(`answers ${WS_CASES} malformed frames over the real WebSocket and changes nothing`, async () => {
    const rng = createRng(SEED ^ 0x5eed);
    const before = await snapshot();
    const problems: string[] = [];
    let client = await connect();
    let sent = 0;
    let oversized = 0;
    for (let index = 0; sent < WS_CASES; index += 1) {
      const frame = wsFrame(rng);
      if (frame === undefined) continue;
      sent += 1;
      if (Buffer.byteLength(frame.data) > MAX_PAYLOAD_BYTES) {
        // Too big to read: the server must drop this connection (1009) and keep serving others.
        oversized += 1;
        client.send(frame);
        const closed = await withTimeout(client.closed);
        if (!closed.done || closed.value !== 1009)
          problems.push(
            `#${index} oversized frame: expected close 1009, got ${closed.done ? closed.value : 'nothing'}`,
          );
        client = await connect();
        continue;
      }
      client.send(frame);
      const outcome = await withTimeout(client.nextReply());
      if (!outcome.done) {
        problems.push(`#${index} ${frame.label}: no reply within ${CALL_TIMEOUT_MS} ms`);
        client.socket.terminate();
        client = await connect();
        continue;
      }
      const reply = outcome.value;
      if (frame.id !== undefined && reply.id !== frame.id)
        problems.push(`#${index} ${frame.label}: reply id ${String(reply.id)}, sent ${frame.id}`);
      if (frame.id === undefined && reply.id !== -1)
        problems.push(`#${index} ${frame.label}: unreadable id answered as ${String(reply.id)}`);
      const problem = replyProblem(frame.method, reply.result);
      if (problem) problems.push(`#${index} ${frame.label}: ${problem}`);
      if (frame.method === undefined && (reply.result as { code?: unknown } | undefined)?.code !== 'INVALID_INPUT') {
        problems.push(
          `#${index} ${frame.label}: a malformed frame must be INVALID_INPUT, got ${describePayload(reply.result)}`,
        );
      }
    }
    client.socket.close();

    expect(problems, `seed ${SEED}`).toEqual([]);
    // Only the oversized frames may leave a trace: the server reports the error, then terminates (1006) that connection,
    // which Berth logs as one ClientDisconnect line.
    expect(
      serverErrors.filter(
        (text) => !/Max payload size exceeded|closed: 1006|dropped without closing \(1006\)/.test(text),
      ),
      `seed ${SEED}`,
    ).toEqual([]);
    expect(serverErrors.filter((text) => text.includes('Max payload size exceeded'))).toHaveLength(oversized);
    await expectBerthUp();
    const fresh = await connect();
    fresh.send({
      data: JSON.stringify({ kind: 'call', id: 7, method: 'app.info', input: {} }),
      label: 'final app.info',
    });
    expect(await fresh.nextReply()).toMatchObject({ id: 7, result: { ok: true, value: { shell: 'browser' } } });
    fresh.socket.close();
    expect(await snapshot()).toBe(before);
  });
});

interface Frame {
  data: string | Buffer;
  /** Set when the frame carries a readable id the reply must echo. */
  id?: number;
  /** Set for well-formed call envelopes: what the reply is checked against. */
  method?: unknown;
  label: string;
}

/** One WebSocket frame: raw garbage, a broken envelope, or a call envelope around a fuzz case. */
function wsFrame(rng: Rng): Frame | undefined {
  const id = int(rng, 1_000_000);
  const roll = rng();
  if (roll < 0.1)
    return {
      data: pick(rng, [
        '',
        'null',
        'hello',
        '{',
        '}{',
        '[]',
        '"call"',
        '{"kind":"call","id":1,',
        '\u0000\u0001',
        'NaN',
      ]),
      label: 'raw text',
    };
  if (roll < 0.15)
    return { data: Buffer.from(Array.from({ length: 1 + int(rng, 64) }, () => int(rng, 256))), label: 'binary frame' };
  if (roll < 0.18)
    return {
      data: `{"kind":"call","id":${id},"method":"app.info","input":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      id,
      method: 'app.info',
      label: 'deeply nested input',
    };
  if (roll < 0.2) return { data: 'x'.repeat(MAX_PAYLOAD_BYTES + 1), label: 'oversized frame' };
  if (roll < 0.35) {
    const broken: unknown = pick(rng, [
      () => [{ kind: 'call', id, method: 'app.info', input: {} }],
      () => ({ kind: 'call', method: 'app.info', input: {} }),
      () => ({ kind: 'call', id: String(id), method: 'app.info', input: {} }),
      () => ({ kind: 'call', id: -id - 1, method: 'app.info', input: {} }),
      () => ({ kind: 'call', id: id + 0.5, method: 'app.info', input: {} }),
      () => ({ kind: 'reply', id, method: 'app.info', input: {} }),
      () => ({ kind: 'call', id, method: pick(rng, [1, null, [], {}, true]), input: {} }),
      () => ({ kind: 'call', id, input: deepValue(rng, 100) }),
      () => JSON.parse(`{"kind":"call","id":${id},"__proto__":{"method":"app.info"},"input":{}}`) as unknown,
    ])();
    const readable =
      typeof (broken as { id?: unknown }).id === 'number' &&
      Number.isSafeInteger((broken as { id: number }).id) &&
      (broken as { id: number }).id >= 0;
    return {
      data: JSON.stringify(broken),
      ...(readable ? { id } : {}),
      label: `broken envelope ${describePayload(broken)}`,
    };
  }
  const { method, input } = fuzzCase(rng);
  let data: string;
  try {
    data = JSON.stringify({ kind: 'call', id, method, input });
  } catch {
    return undefined;
  }
  // What the host will see is the JSON round trip, so validity is judged on that.
  const wire = JSON.parse(data) as { method?: unknown; input?: unknown };
  if (typeof wire.method !== 'string') return { data, id, label: `non-string method ${describePayload(method)}` };
  if (wouldRun(wire.method, wire.input) && !READ_ONLY_METHODS.has(wire.method)) return undefined;
  return { data, id, method: wire.method, label: `${describePayload(method)} ${describePayload(input)}` };
}

interface Client {
  socket: WebSocket;
  send(frame: Pick<Frame, 'data' | 'label'>): void;
  nextReply(): Promise<{ id?: unknown; result?: unknown }>;
  /** Resolves with the close code. */
  closed: Promise<number>;
}

async function connect(): Promise<Client> {
  const socket = new WebSocket(
    `ws://127.0.0.1:${server.port}${WS_PATH}`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${server.token}`],
    {
      origin: `http://127.0.0.1:${server.port}`,
      maxPayload: MAX_PAYLOAD_BYTES * 2,
    },
  );
  const replies: Array<{ id?: unknown; result?: unknown }> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data: RawData) => {
    const message = JSON.parse(data.toString()) as { kind?: unknown; id?: unknown; result?: unknown };
    if (message.kind === 'event') return;
    replies.push(message);
    for (const wake of waiters.splice(0)) wake();
  });
  // The oversized-frame case makes the server drop the socket; that surfaces here, not as a test error.
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolveClose) => socket.once('close', (code) => resolveClose(code)));
  await new Promise<void>((resolveOpen, rejectOpen) => {
    socket.once('open', () => resolveOpen());
    socket.once('error', rejectOpen);
  });
  return {
    socket,
    closed,
    send: (frame) => socket.send(frame.data, { binary: Buffer.isBuffer(frame.data) }),
    nextReply: async () => {
      for (;;) {
        const reply = replies.shift();
        if (reply !== undefined) return reply;
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
  };
}
