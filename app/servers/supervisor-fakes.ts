/**
 * Test-only: a connection that is no process and no socket, and an opener
 * that hands them to the supervisor (SupervisorOptions.openConnection) and
 * lets each test decide how every start ends. The state machine's unit tests
 * run on these in milliseconds; the integration tests use real servers.
 */
import type { HostMessage } from '../../shared/domain/host-message';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { LogLevel, ToolInfo } from '../../shared/domain/server';
import { BerthClient } from './berth-client';
import type {
  ConnectionEvents,
  ConnectionFacts,
  OpenConnection,
  ServerConnectionOptions,
  SupervisedConnection,
} from './connection-options';
import { Listeners } from './connection-scope';
import type { Disposable } from './connection-scope';
import type { ListKind } from './list-changes';
import { ServerStartError } from '../../shared/domain/server-start-error';

export class FakeConnection implements SupervisedConnection {
  readonly client = new BerthClient({ name: 'fake', version: '0' }, { capabilities: {} });
  lostReason: string | undefined;
  tools: ToolInfo[] = [];
  closeCount = 0;
  readonly levels: (LogLevel | 'server default')[] = [];
  private readonly listeners = new Listeners<ConnectionEvents>();

  constructor(readonly options: ServerConnectionOptions) {}

  facts(): ConnectionFacts {
    return {
      pid: 4242,
      protocolVersion: '2025-06-18',
      era: 'legacy',
      serverInfo: { name: 'fake', version: '1.0.0' },
      capabilities: { tools: {} },
      instructions: undefined,
      tools: this.tools,
      transport: 'stdio',
    };
  }

  on<E extends keyof ConnectionEvents>(event: E, listener: ConnectionEvents[E]): Disposable {
    return this.listeners.on(event, listener);
  }

  /** The server announced a list change (for tools: after the new list was read, as ServerConnection does). */
  announce(kind: ListKind, tools?: ToolInfo[]): void {
    if (tools !== undefined) this.tools = tools;
    this.listeners.emit('listChanged', kind);
  }

  /** The server went away by itself. */
  lose(reason: string, message?: HostMessage): void {
    this.lostReason = reason;
    this.listeners.emit('lost', reason, message);
  }

  callTool(tool: string): Promise<CallToolResult> {
    return Promise.resolve({ content: [{ type: 'text', text: `called ${tool}` }] });
  }

  request<T>(
    _method: string,
    _what: string,
    _timeoutMs: number,
    _signal: AbortSignal | undefined,
    send: (client: BerthClient) => Promise<T>,
  ): Promise<T> {
    return send(this.client);
  }

  setLogLevel(level: LogLevel): Promise<void> {
    this.levels.push(level);
    return Promise.resolve();
  }

  forgetLogLevel(): void {
    this.levels.push('server default');
  }

  close(): Promise<void> {
    this.closeCount++;
    return Promise.resolve();
  }
}

/** One call of the opener: the test ends it with `succeed` or `fail`, or the supervisor cancels it. */
export class PendingStart {
  readonly connection: FakeConnection;
  readonly result: Promise<SupervisedConnection>;
  settled = false;
  private resolve!: (connection: SupervisedConnection) => void;
  private reject!: (error: Error) => void;

  constructor(readonly options: ServerConnectionOptions) {
    this.connection = new FakeConnection(options);
    this.result = new Promise<SupervisedConnection>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** What ServerConnection.open does when its signal aborts mid-handshake. */
  cancelOnAbort(): void {
    const signal = this.options.signal;
    if (signal?.aborted) this.fail(new ServerStartError('start was cancelled', 'cancelled'));
    signal?.addEventListener('abort', () => this.fail(new ServerStartError('start was cancelled', 'cancelled')));
  }

  spawned(pid: number): void {
    this.options.onSpawn?.(pid);
  }

  succeed(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.connection);
  }

  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}

/** How a start goes: at once ready, a failure, or held until the test (or a cancel) ends it. */
export type StartPlan = 'ready' | 'hang' | 'hang-ignoring-abort' | ServerStartError;

export class FakeOpener {
  readonly starts: PendingStart[] = [];
  /** Plans for the next starts, in order; once used up, every start is ready at once. */
  readonly plans: StartPlan[] = [];

  readonly open: OpenConnection = (options) => {
    const start = new PendingStart(options);
    this.starts.push(start);
    const plan = this.plans.shift() ?? 'ready';
    if (plan === 'ready') start.succeed();
    else if (plan === 'hang') start.cancelOnAbort();
    else if (plan instanceof ServerStartError) start.fail(plan);
    return start.result;
  };

  /** The connection of the latest start. */
  get latest(): FakeConnection {
    const start = this.starts.at(-1);
    if (start === undefined) throw new Error('nothing was started');
    return start.connection;
  }

  /** The start number `index` (0-based), once it was asked for. */
  start(index: number): PendingStart {
    const start = this.starts[index];
    if (start === undefined) throw new Error(`start ${index} was not asked for (${this.starts.length} so far)`);
    return start;
  }
}
