import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionTransport } from './connection-transport';
import { EraCache } from './era-cache';
import type { ListKind } from './list-changes';
import { ServerConnection } from './server-connection';
import { LogCollector, serverConfig, tempDir } from './test-support';

/** ServerConnection over an injected transport: an in-memory link to a real SDK server in this process. */

let dir: { path: string; cleanup: () => Promise<void> };
let closers: (() => Promise<unknown>)[];

beforeEach(async () => {
  dir = await tempDir('berth-connection-unit-');
  closers = [];
});

afterEach(async () => {
  for (const close of closers.reverse()) await close();
  await dir.cleanup();
});

async function connect(server: McpServer, eraCache?: (logs: LogCollector) => EraCache) {
  const logs = new LogCollector();
  const built: string[] = [];
  const cache = eraCache?.(logs) ?? new EraCache({ stateDir: dir.path, logs });
  // Ready no longer waits for the era's write: the folder is removed only once it is on disk.
  closers.push(() => cache.flush());
  const connection = await ServerConnection.open({
    name: 'mem',
    config: serverConfig({ command: 'in-memory' }),
    hostEnv: {},
    logs,
    eraCache: cache,
    clientVersion: '0.0.0',
    createTransport: ({ kind }): ConnectionTransport => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      built.push(kind);
      void server.connect(serverSide);
      return {
        kind,
        sdk: clientSide,
        pid: undefined,
        exitInfo: undefined,
        brokenReason: undefined,
        sessionId: undefined,
        description: 'in memory',
        endSession: () => Promise.resolve(),
        close: () => clientSide.close(),
      };
    },
  });
  closers.push(
    () => connection.close(),
    () => server.close(),
  );
  return { connection, logs, built };
}

describe('ServerConnection over an injected transport', () => {
  it('talks MCP over the transport it was given', async () => {
    const server = new McpServer({ name: 'mem', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('echo', { description: 'says it back' }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
    const { connection, built } = await connect(server);
    expect(built).toEqual(['stdio']);
    expect(connection.tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(await connection.callTool('echo', {})).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  });

  it("is ready without waiting for the era cache's write (fifty servers ready together waited for each other's fsyncs)", async () => {
    const asked: string[] = [];
    /** A cache whose saves never finish, as a disk that hangs. */
    class StuckEraCache extends EraCache {
      override remember(name: string): Promise<void> {
        asked.push(name);
        return new Promise<void>(() => undefined);
      }
    }
    const server = new McpServer({ name: 'mem', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('echo', {}, () => ({ content: [] }));
    let timer: NodeJS.Timeout | undefined;
    const tooLate = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('open() waited for the era cache write')), 3_000);
    });
    try {
      const { connection, logs } = await Promise.race([
        connect(server, (log) => new StuckEraCache({ stateDir: dir.path, logs: log })),
        tooLate,
      ]);
      expect(connection.tools.map((tool) => tool.name)).toEqual(['echo']);
      expect(asked).toEqual(['mem']);
      expect(logs.texts('mem', 'host').some((text) => text.startsWith('ready: protocol'))).toBe(true);
    } finally {
      clearTimeout(timer);
    }
  });

  it('tells every list change by kind; tools only once the new list is read', async () => {
    const server = new McpServer(
      { name: 'mem', version: '1.0.0' },
      {
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { listChanged: true },
        },
      },
    );
    server.registerTool('echo', {}, () => ({ content: [] }));
    const { connection } = await connect(server);
    const heard: [ListKind, string[]][] = [];
    connection.on('listChanged', (kind) => heard.push([kind, connection.tools.map((tool) => tool.name)]));

    server.registerTool('second', {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(heard).toEqual([['tools', ['echo', 'second']]]));
    server.registerPrompt('greet', {}, () => ({ messages: [] }));
    await vi.waitFor(() => expect(heard.map(([kind]) => kind)).toEqual(['tools', 'prompts']));
    server.registerResource('readme', 'file:///readme', {}, () => ({ contents: [] }));
    await vi.waitFor(() => expect(heard.map(([kind]) => kind)).toEqual(['tools', 'prompts', 'resources']));
  });

  it('a listener disposed is not called again', async () => {
    const server = new McpServer(
      { name: 'mem', version: '1.0.0' },
      { capabilities: { prompts: { listChanged: true } } },
    );
    const { connection } = await connect(server);
    const heard: ListKind[] = [];
    const kept: ListKind[] = [];
    const subscription = connection.on('listChanged', (kind) => heard.push(kind));
    connection.on('listChanged', (kind) => kept.push(kind));
    server.registerPrompt('one', {}, () => ({ messages: [] }));
    await vi.waitFor(() => expect(heard).toEqual(['prompts']));
    subscription.dispose();
    server.registerPrompt('two', {}, () => ({ messages: [] }));
    await vi.waitFor(() => expect(kept).toEqual(['prompts', 'prompts']));
    expect(heard).toEqual(['prompts']);
  });

  it('tells `lost` when the link closes by itself after it was ready, and not when Berth closes it', async () => {
    const server = new McpServer({ name: 'mem', version: '1.0.0' }, { capabilities: { tools: {} } });
    const { connection } = await connect(server);
    const lost: string[] = [];
    connection.on('lost', (reason) => lost.push(reason));
    await server.close();
    await vi.waitFor(() => expect(lost).toHaveLength(1));
    expect(connection.lostReason).toBe(lost[0]);

    const other = new McpServer({ name: 'mem', version: '1.0.0' }, { capabilities: { tools: {} } });
    const { connection: second } = await connect(other);
    const none: string[] = [];
    second.on('lost', (reason) => none.push(reason));
    await second.close();
    expect(none).toEqual([]);
  });
});
