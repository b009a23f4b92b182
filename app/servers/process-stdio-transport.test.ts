import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProcessStdioTransport } from './process-stdio-transport';
import { isProcessAlive } from './process-tree';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { waitUntil } from './test-support';

/** A tiny inline server: `script` runs in a fresh Node process. */
function nodeTransport(script: string, extra: Partial<ConstructorParameters<typeof ProcessStdioTransport>[0]> = {}) {
  const garbage: string[] = [];
  const stderr: string[] = [];
  const traces: { direction: string; bytes: number }[] = [];
  const messages: JSONRPCMessage[] = [];
  const transport = new ProcessStdioTransport({
    command: process.execPath,
    args: ['-e', script],
    hooks: {
      onStdoutGarbage: (text) => garbage.push(text),
      onStderrLine: (line) => stderr.push(line),
      onTrace: (direction, _message, bytes) => traces.push({ direction, bytes }),
    },
    ...extra,
  });
  transport.onmessage = (message) => messages.push(message);
  return { transport, garbage, stderr, traces, messages };
}

const ECHO_LINES = `require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write(l + '\\n'));`;

describe('ProcessStdioTransport', () => {
  // Only the sandbox passes fd3Input, and the sandbox runs on Linux and macOS: Windows spawns have no inherited fd 3 to test.
  it.skipIf(process.platform === 'win32')(
    'writes fd3Input to the child’s fd 3 and closes it, so the child reads it to its end',
    async () => {
      const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/fd3', params: { text: 'from fd 3 ✓' } });
      const messages: JSONRPCMessage[] = [];
      // The second message is printed only once `cat` saw the end of fd 3.
      const eof = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/eof' });
      const transport = new ProcessStdioTransport({
        command: '/bin/sh',
        args: ['-c', `cat <&3; echo '${eof}'; sleep 30`],
        fd3Input: Buffer.from(`${line}\n`),
      });
      transport.onmessage = (message) => messages.push(message);
      await transport.start();
      await waitUntil(() => messages.length === 2, 10_000, 'the line written to fd 3, then its end');
      expect(messages).toMatchObject([
        { method: 'notifications/fd3', params: { text: 'from fd 3 ✓' } },
        { method: 'notifications/eof' },
      ]);
      await transport.close();
    },
  );

  it('round-trips JSON-RPC lines, reports garbage without closing, and exposes pid/stderr', async () => {
    const { transport, garbage, messages, traces } = nodeTransport(`
      process.stdout.write('banner\\n{"not":"jsonrpc"}\\n');
      ${ECHO_LINES}`);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    expect(transport.pid).toBeGreaterThan(0);
    expect(transport.stderr).not.toBeNull();
    expect('_dispose' in transport).toBe(false);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await waitUntil(() => messages.length === 1, 10_000, 'the echoed message');
    expect(messages[0]).toMatchObject({ id: 1, method: 'ping' });
    expect(garbage).toEqual([
      'stdout line is not JSON-RPC (not JSON): banner',
      'stdout line is not JSON-RPC (JSON, but not a JSON-RPC 2.0 message): {"not":"jsonrpc"}',
    ]);
    expect(traces.map((t) => t.direction)).toEqual(['out', 'in']);
    expect(closed).toBe(false);
    await transport.close();
    expect(closed).toBe(true);
    expect(transport.exitInfo).toEqual({ code: 0, signal: null });
  });

  it('discards a line over maxMessageBytes and keeps working', async () => {
    const { transport, garbage, messages } = nodeTransport(
      `process.stdout.write('x'.repeat(5000) + '\\n'); ${ECHO_LINES}`,
      { maxMessageBytes: 1024 },
    );
    await transport.start();
    await waitUntil(() => garbage.length === 1, 10_000, 'the overflow report');
    expect(garbage[0]).toMatch(/longer than the 1 KiB message limit.*discarding it/);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await waitUntil(() => messages.length === 1, 10_000, 'the echoed message');
    await transport.close();
  });

  it('splits stderr into capped lines and flushes a trailing partial line at exit', async () => {
    const { transport, stderr } = nodeTransport(
      `process.stderr.write('one\\n' + 'y'.repeat(100) + '\\npartial'); setTimeout(() => process.exit(2), 50);`,
      { maxStderrLineBytes: 10 },
    );
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    await waitUntil(() => closed, 10_000, 'the process to exit');
    expect(stderr).toEqual(['one', 'yyyyyyyyyy … [line truncated]', 'partial']);
    expect(transport.exitInfo).toEqual({ code: 2, signal: null });
  });

  it('rejects send() clearly once the process is gone', async () => {
    const { transport } = nodeTransport(`process.exit(5)`);
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    await waitUntil(() => closed, 10_000, 'the process to exit');
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(
      'server process exited (code 5)',
    );
  });

  it('a server that closes stdout and keeps running is stopped, and the link reported closed with the reason', async () => {
    const broken: string[] = [];
    const { transport } = nodeTransport(
      `process.stdout.end(); process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)`,
      {
        hooks: { onBroken: (reason) => broken.push(reason) },
      },
    );
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    const pid = transport.pid as number;
    await waitUntil(() => closed, 10_000, 'the link to be reported closed');
    expect(transport.brokenReason).toBe('closed its output (stdout) while still running');
    expect(broken).toEqual(['closed its output (stdout) while still running']);
    // Berth stopped it: it ignored the end of stdin, so SIGTERM ended it.
    expect(transport.exitInfo).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isProcessAlive(pid)).toBe(false);
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(
      'server closed its output (stdout) while still running',
    );
  });

  it('a server that exits is not mistaken for one that closed its stdout', async () => {
    const { transport } = nodeTransport(
      `process.stdout.write('{"jsonrpc":"2.0","method":"bye"}\\n', () => process.exit(4))`,
    );
    let closed = false;
    transport.onclose = () => (closed = true);
    await transport.start();
    await waitUntil(() => closed, 10_000, 'the process to exit');
    expect(transport.exitInfo).toEqual({ code: 4, signal: null });
    expect(transport.brokenReason).toBeUndefined();
  });

  it('a JSON-RPC batch fails the requests it answered, refuses the ones it asked, and is reported by name', async () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 7, result: {} },
      { jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
    ]);
    // Prints the batch, then echoes back (to stderr) whatever Berth answers.
    const script = `process.stdout.write(${JSON.stringify(`${batch}
`)}); require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => process.stderr.write(l + '\\n'));`;
    const { transport, garbage, messages, stderr } = nodeTransport(script);
    await transport.start();
    await waitUntil(() => messages.length === 1 && stderr.length === 1, 10_000, 'the batch to be handled');
    expect(garbage).toEqual([
      'stdout line is a JSON-RPC batch (a JSON array of 3 items, answering request 7), which MCP does not allow; failing the requests it answered',
    ]);
    expect(messages[0]).toMatchObject({
      id: 7,
      error: { code: -32600, message: expect.stringContaining('MCP has no batches since protocol 2025-06-18') },
    });
    expect(JSON.parse(stderr[0]!)).toMatchObject({ id: 'srv-1', error: { code: -32600 } });
    await transport.close();
  });

  it('escalates to SIGTERM when the server ignores stdin EOF', async () => {
    const { transport } = nodeTransport(`setInterval(() => {}, 1000)`, {
      shutdownGraceMs: 200,
      terminateGraceMs: 2_000,
    });
    await transport.start();
    const pid = transport.pid as number;
    await transport.close();
    expect(transport.exitInfo).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('escalates to SIGKILL when the server also ignores SIGTERM', async () => {
    const { transport, stderr } = nodeTransport(
      `process.on('SIGTERM', () => {}); process.stderr.write('handler installed\\n'); setInterval(() => {}, 1000)`,
      { shutdownGraceMs: 200, terminateGraceMs: 300 },
    );
    await transport.start();
    // Signal only once the handler is in: a fixed wait lost the race to a slow Node start on a loaded machine (SIGTERM killed it).
    await waitUntil(() => stderr.includes('handler installed'), 10_000, 'the SIGTERM handler');
    await transport.close();
    expect(transport.exitInfo).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('explains a missing cwd before spawning', async () => {
    const transport = new ProcessStdioTransport({ command: process.execPath, cwd: '/definitely/not/here' });
    const error = await transport.start().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerStartError);
    expect((error as ServerStartError).message).toMatch(/^working directory '\/definitely\/not\/here' does not exist/);
    await transport.close();
  });

  it('explains a command that is not on PATH', async () => {
    const transport = new ProcessStdioTransport({ command: 'berth-no-such-command', env: { PATH: '/usr/bin:/bin' } });
    await expect(transport.start()).rejects.toThrow(
      "command 'berth-no-such-command' not found on PATH (/usr/bin:/bin) — install it or use its full path",
    );
  });

  it('sends the messages of one tick in one write, in order', async () => {
    // Each answer says in which stdin chunk its line arrived.
    const { transport, messages } = nodeTransport(`
      let chunk = 0; let rest = '';
      process.stdin.on('data', (data) => {
        chunk += 1;
        const lines = (rest + data).split('\\n'); rest = lines.pop();
        for (const line of lines) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(line).id, result: { chunk } }) + '\\n');
      });`);
    await transport.start();
    const stdin = (transport as unknown as { child: { stdin: { writableCorked: number } } }).child.stdin;
    const sends = [1, 2, 3].map((id) => transport.send({ jsonrpc: '2.0', id, method: 'ping' }));
    // Held until the tick is over, then written together.
    expect(stdin.writableCorked).toBe(1);
    await Promise.all(sends);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stdin.writableCorked).toBe(0);
    await waitUntil(() => messages.length === 3, 10_000, 'three answers');
    expect(messages.map((m) => ('id' in m ? m.id : undefined))).toEqual([1, 2, 3]);
    expect(new Set(messages.map((m) => ('result' in m ? (m.result as { chunk: number }).chunk : undefined))).size).toBe(
      1,
    );
    await transport.close();
  });

  it('waits for drain under backpressure instead of buffering without bound', async () => {
    // The child reads nothing for a while, so the pipe fills up.
    const { transport, messages } = nodeTransport(`setTimeout(() => { ${ECHO_LINES} }, 300);`);
    await transport.start();
    const big = 'z'.repeat(256 * 1024);
    const sends = Array.from({ length: 8 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', id: i, method: 'big', params: { big } }),
    );
    await Promise.all(sends);
    await waitUntil(() => messages.length === 8, 20_000, 'all big messages echoed');
    await transport.close();
  });

  it('waits for one drain however many sends are held back (no listener per send)', async () => {
    const { transport, messages } = nodeTransport(`setTimeout(() => { ${ECHO_LINES} }, 300);`);
    await transport.start();
    const stdin = (transport as unknown as { child: { stdin: NodeJS.WritableStream } }).child.stdin;
    const padding = 'p'.repeat(64 * 1024);
    const sends = Array.from({ length: 40 }, (_, i) =>
      transport.send({ jsonrpc: '2.0', id: i, method: 'padded', params: { padding } }),
    );
    expect(stdin.listenerCount('drain')).toBeLessThanOrEqual(2);
    expect(stdin.listenerCount('close')).toBeLessThanOrEqual(2);
    await Promise.all(sends);
    await waitUntil(() => messages.length === 40, 20_000, 'all padded messages echoed');
    await transport.close();
  });
});
