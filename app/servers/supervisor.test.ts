import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECRET_MASK, ServerStateSchema } from '../../shared/domain/server';
import type { ServerConfig, ServerConfigInput } from '../../shared/domain/server';
import type { ListKind } from './list-changes';
import { ServerStartError } from '../../shared/domain/server-start-error';
import { serverStateReason } from '../../shared/domain/server-state-reasons';
import { ServerSupervisor } from './supervisor';
import { FakeOpener } from './supervisor-fakes';
import { LogCollector, StateRecorder, serverConfig, tempDir } from './test-support';

/** The state machine on fake connections: no process, no socket, fake timers where time matters. */

const RESTART = { enabled: true, maxRestarts: 3, initialDelayMs: 1_000, maxDelayMs: 30_000 };
const config = (extra: Partial<ServerConfigInput> = {}): ServerConfig =>
  serverConfig({ command: 'fake-server', restart: RESTART, ...extra });
const exited = (): ServerStartError =>
  new ServerStartError('exited with code 1 before the handshake finished', 'exited');

let dir: { path: string; cleanup: () => Promise<void> };
let logs: LogCollector;
let states: StateRecorder;
let opener: FakeOpener;
let listChanges: [string, ListKind][];
let supervisor: ServerSupervisor;

beforeEach(async () => {
  dir = await tempDir('berth-supervisor-unit-');
  logs = new LogCollector();
  states = new StateRecorder();
  opener = new FakeOpener();
  listChanges = [];
  supervisor = new ServerSupervisor({
    logs,
    stateDir: dir.path,
    onState: states.onState,
    openConnection: opener.open,
    stableAfterMs: 60_000,
    onListChanged: (server, kind) => listChanges.push([server, kind]),
  });
});

afterEach(async () => {
  vi.useRealTimers();
  await supervisor.shutdown();
  await dir.cleanup();
});

describe('start, stop, restart', () => {
  it('start: stopped → starting → ready, with what the connection tells about itself', async () => {
    await supervisor.sync({ a: config({ enabled: false }) });
    opener.plans.push('hang');
    const started = supervisor.start('a');
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    opener.start(0).spawned(777);
    expect(supervisor.get('a')).toMatchObject({ status: 'starting', pid: 777 });
    opener.start(0).succeed();
    expect(await started).toMatchObject({
      status: 'ready',
      pid: 4242,
      protocolVersion: '2025-06-18',
      era: 'legacy',
      transport: 'stdio',
      restartCount: 0,
    });
    expect(states.statuses('a')).toEqual(['stopped', 'starting', 'ready']);
    expect(opener.start(0).options).toMatchObject({ name: 'a', config: { command: 'fake-server' } });
  });

  it('start on a ready server opens nothing new', async () => {
    await supervisor.sync({ a: config() });
    await supervisor.start('a');
    expect(opener.starts).toHaveLength(1);
  });

  it('stop closes the connection; later syncs leave it stopped until the person starts it', async () => {
    const a = config();
    await supervisor.sync({ a });
    const first = opener.latest;
    expect(await supervisor.stop('a')).toMatchObject({ status: 'stopped', reason: 'stopped' });
    expect(first.closeCount).toBe(1);
    await supervisor.sync({ a });
    await supervisor.sync({ a: { ...a, env: { EDITED: '1' } } });
    expect(supervisor.get('a')?.status).toBe('stopped');
    expect(opener.starts).toHaveLength(1);
    await supervisor.start('a');
    expect(supervisor.get('a')?.status).toBe('ready');
    expect(opener.starts).toHaveLength(2);
  });

  it('restart closes the old connection, then opens a new one', async () => {
    await supervisor.sync({ a: config() });
    const first = opener.latest;
    expect(await supervisor.restart('a')).toMatchObject({ status: 'ready' });
    expect(first.closeCount).toBe(1);
    expect(opener.starts).toHaveLength(2);
    expect(states.statuses('a')).toEqual(['stopped', 'starting', 'ready', 'stopped', 'starting', 'ready']);
    expect(states.states.filter((state) => state.status === 'stopped').map((state) => state.reason)).toEqual([
      undefined,
      'restarting',
    ]);
  });

  it("carries a start failure's code and parameters beside its English reason, for the renderer to word", async () => {
    opener.plans.push(
      new ServerStartError("command 'fake-server' not found on PATH (/usr/bin)", 'config', 'ENOENT', undefined, {
        code: 'server-start.command-not-on-path',
        params: { command: 'fake-server', path: '/usr/bin' },
      }),
    );
    await supervisor.sync({ a: config() });
    expect(supervisor.get('a')).toMatchObject({
      status: 'error',
      reason: "command 'fake-server' not found on PATH (/usr/bin)",
      reasonMessage: { code: 'server-start.command-not-on-path', params: { command: 'fake-server', path: '/usr/bin' } },
    });
    expect(ServerStateSchema.safeParse(supervisor.get('a')).success).toBe(true);
  });

  it('carries the reason of a stopped, crashed and restarting server as a code beside its English', async () => {
    await supervisor.sync({ a: config() });
    expect(await supervisor.stop('a')).toMatchObject({
      status: 'stopped',
      reason: 'stopped',
      reasonMessage: { code: 'server-state.stopped', params: {} },
    });
    const unreachable = serverStateReason('server-state.unreachable', {
      where: 'https://mcp.example.com/mcp',
      detail: 'connection refused',
    });
    opener.plans.push(
      new ServerStartError(unreachable.text, 'unreachable', undefined, undefined, unreachable.hostMessage),
    );
    await supervisor.start('a');
    const shown = states.states.filter((state) => state.name === 'a').slice(-2);
    expect(shown.map((state) => [state.status, state.reason, state.reasonMessage])).toEqual([
      ['crashed', 'could not reach https://mcp.example.com/mcp: connection refused', unreachable.hostMessage],
      ['restarting', 'could not reach https://mcp.example.com/mcp: connection refused', unreachable.hostMessage],
    ]);
    for (const state of shown) expect(ServerStateSchema.safeParse(state).success).toBe(true);
  });

  it('start failures that a retry cannot fix are an error; a sign-in says so', async () => {
    opener.plans.push(
      new ServerStartError("command 'fake-server' not found on PATH", 'config'),
      new ServerStartError('the server wants a sign-in', 'sign-in'),
    );
    await supervisor.sync({ a: config() });
    expect(supervisor.get('a')).toMatchObject({ status: 'error', reason: "command 'fake-server' not found on PATH" });
    await supervisor.start('a');
    expect(supervisor.get('a')).toMatchObject({
      status: 'error',
      reason: 'the server wants a sign-in',
      auth: { state: 'needs-sign-in' },
    });
  });
});

describe('crashes, backoff, give-up', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('a crash while starting is shown, then retried after the first delay', async () => {
    opener.plans.push(exited());
    await supervisor.sync({ a: config() });
    expect(supervisor.get('a')).toMatchObject({
      status: 'restarting',
      restartCount: 1,
      nextRestartAt: Date.now() + 1_000,
    });
    expect(states.statuses('a')).toEqual(['stopped', 'starting', 'crashed', 'restarting']);
    expect(logs.texts('a', 'host')).toContain(
      'exited with code 1 before the handshake finished; restart 1 of 3 in 1 s',
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(opener.starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(opener.starts).toHaveLength(2);
    expect(supervisor.get('a')).toMatchObject({ status: 'ready', restartCount: 1 });
  });

  it('a crash after ready: restarted, and the old connection is heard no more', async () => {
    await supervisor.sync({ a: config() });
    const first = opener.latest;
    first.lose('exited with code 3');
    expect(supervisor.get('a')).toMatchObject({
      status: 'restarting',
      reason: 'exited with code 3',
      restartCount: 1,
    });
    // What the connection told went with it.
    expect(supervisor.get('a')).not.toHaveProperty('tools');
    // Whatever the dead connection still says reaches nobody.
    first.announce('prompts');
    first.announce('tools', [{ name: 'ghost', inputSchema: { type: 'object' } }]);
    first.lose('exited again');
    expect(listChanges).toEqual([]);
    expect(supervisor.get('a')).toMatchObject({
      status: 'restarting',
      reason: 'exited with code 3',
      restartCount: 1,
    });
    // What the connection told went with it.
    expect(supervisor.get('a')).not.toHaveProperty('tools');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(supervisor.get('a')?.status).toBe('ready');
    expect(opener.starts).toHaveLength(2);
  });

  it('delays double, then it gives up after maxRestarts and says so in the log', async () => {
    opener.plans.push(exited(), exited(), exited(), exited());
    await supervisor.sync({ a: config() });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const state = supervisor.get('a');
      expect(state).toMatchObject({ status: 'restarting', restartCount: attempt });
      const delay = (state?.nextRestartAt ?? 0) - Date.now();
      delays.push(delay);
      await vi.advanceTimersByTimeAsync(delay);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000]);
    expect(supervisor.get('a')).toMatchObject({
      status: 'crashed',
      reason: 'gave up after 3 restarts: exited with code 1 before the handshake finished',
      reasonMessage: {
        code: 'server-state.gave-up',
        params: { restarts: 3, reason: 'exited with code 1 before the handshake finished' },
      },
    });
    expect(
      logs
        .for('a', 'host')
        .filter((entry) => entry.level === 'error')
        .map((entry) => entry.text),
    ).toEqual(['gave up after 3 restarts: exited with code 1 before the handshake finished']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opener.starts).toHaveLength(4);
  });

  it('restart off: crashed, and nothing scheduled', async () => {
    opener.plans.push(exited());
    await supervisor.sync({ a: config({ restart: { ...RESTART, enabled: false } }) });
    expect(supervisor.get('a')).toMatchObject({
      status: 'crashed',
      reason: 'exited with code 1 before the handshake finished (automatic restart is off)',
      reasonMessage: {
        code: 'server-state.restart-off',
        params: { reason: 'exited with code 1 before the handshake finished' },
      },
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opener.starts).toHaveLength(1);
  });

  it('restart off after a ready server went away: the policy words its coded reason, code and facts kept inside', async () => {
    await supervisor.sync({ a: config({ restart: { ...RESTART, enabled: false } }) });
    const exited = serverStateReason('server-state.exited', { exit: 'SIGKILL' });
    opener.latest.lose(exited.text, exited.hostMessage);
    expect(supervisor.get('a')).toMatchObject({
      status: 'crashed',
      reason: 'exited with signal SIGKILL (automatic restart is off)',
      reasonMessage: {
        code: 'server-state.restart-off',
        params: { reason: 'exited with signal SIGKILL' },
        cause: { code: 'server-state.exited', params: { exit: 'SIGKILL' } },
      },
    });
  });

  it('the restart counter resets once a restarted server stays ready for stableAfterMs, not before', async () => {
    await supervisor.sync({ a: config() });
    opener.latest.lose('exited with code 3');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(supervisor.get('a')).toMatchObject({ status: 'ready', restartCount: 1 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(supervisor.get('a')?.restartCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(supervisor.get('a')?.restartCount).toBe(0);
  });

  it('a crash before the stable time counts on: the next delay doubles', async () => {
    await supervisor.sync({ a: config() });
    opener.latest.lose('exited with code 3');
    await vi.advanceTimersByTimeAsync(1_000);
    // One second short of its stable time.
    await vi.advanceTimersByTimeAsync(59_000);
    opener.latest.lose('exited with code 3');
    expect(supervisor.get('a')).toMatchObject({
      status: 'restarting',
      restartCount: 2,
      nextRestartAt: Date.now() + 2_000,
    });
    // Its stable timer went with it: past the time it was set for, the count stays.
    await vi.advanceTimersByTimeAsync(1_999);
    expect(supervisor.get('a')).toMatchObject({ status: 'restarting', restartCount: 2 });
  });

  it('a connection lost between its handshake and being taken on is a crash like any other', async () => {
    opener.plans.push('hang');
    const started = supervisor.sync({ a: config() });
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    opener.start(0).connection.lostReason = 'closed its output (stdout) while still running';
    opener.start(0).succeed();
    await started;
    expect(supervisor.get('a')).toMatchObject({
      status: 'restarting',
      reason: 'closed its output (stdout) while still running',
      restartCount: 1,
    });
  });

  it('stop during the backoff cancels the pending restart', async () => {
    opener.plans.push(exited());
    await supervisor.sync({ a: config() });
    expect(await supervisor.stop('a')).toMatchObject({ status: 'stopped', reason: 'stopped' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opener.starts).toHaveLength(1);
  });
});

describe('config changes, removal and shutdown in the middle of a start', () => {
  it('a config change cancels the start in progress and starts the new config', async () => {
    opener.plans.push('hang');
    const a = config();
    const first = supervisor.sync({ a });
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    await supervisor.sync({ a: { ...a, args: ['--new'] } });
    await first;
    expect(opener.start(0).options.signal?.aborted).toBe(true);
    expect(opener.starts).toHaveLength(2);
    expect(opener.start(1).options.config.args).toEqual(['--new']);
    expect(supervisor.get('a')).toMatchObject({ status: 'ready', config: { args: ['--new'] } });
  });

  it('a start that finishes after it was cancelled is closed, not taken on', async () => {
    opener.plans.push('hang-ignoring-abort');
    const a = config();
    void supervisor.sync({ a });
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    const stopped = supervisor.stop('a');
    opener.start(0).succeed();
    expect(await stopped).toMatchObject({ status: 'stopped', reason: 'stopped' });
    expect(opener.start(0).connection.closeCount).toBe(1);
    // What it says afterwards reaches nobody.
    opener.start(0).connection.announce('resources');
    expect(listChanges).toEqual([]);
  });

  it('removal in the middle of a start cancels it and forgets the server', async () => {
    opener.plans.push('hang');
    const started = supervisor.sync({ a: config() });
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    await supervisor.sync({});
    await started;
    expect(opener.start(0).options.signal?.aborted).toBe(true);
    expect(supervisor.list()).toEqual([]);
    expect(supervisor.get('a')).toBeUndefined();
    expect(opener.starts).toHaveLength(1);
  });

  it('shutdown with starts in flight: each is cancelled, everything ends stopped, and no new start is taken', async () => {
    opener.plans.push('hang', 'hang');
    const starting = supervisor.sync({ a: config(), b: config() });
    await vi.waitFor(() => expect(opener.starts).toHaveLength(2));
    await supervisor.shutdown();
    await starting;
    expect(opener.starts.every((start) => start.options.signal?.aborted === true)).toBe(true);
    expect(supervisor.list().map((state) => [state.name, state.status, state.reason])).toEqual([
      ['a', 'stopped', 'host shut down'],
      ['b', 'stopped', 'host shut down'],
    ]);
    await expect(supervisor.start('a')).rejects.toMatchObject({ code: 'NOT_READY' });
    expect(opener.starts).toHaveLength(2);
  });

  it('shutdown closes ready connections', async () => {
    await supervisor.sync({ a: config(), b: config() });
    await supervisor.shutdown();
    expect(opener.starts.map((start) => start.connection.closeCount)).toEqual([1, 1]);
  });
});

describe('what a live connection tells', () => {
  it('list changes go out by kind; a tool change puts the new list in the state first', async () => {
    await supervisor.sync({ a: config() });
    const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
    opener.latest.announce('tools', tools);
    opener.latest.announce('prompts');
    opener.latest.announce('resources');
    expect(supervisor.get('a')?.tools).toEqual(tools);
    expect(listChanges).toEqual([
      ['a', 'tools'],
      ['a', 'prompts'],
      ['a', 'resources'],
    ]);
  });

  it('after a restart only the new connection is heard', async () => {
    await supervisor.sync({ a: config() });
    const first = opener.latest;
    await supervisor.restart('a');
    first.announce('prompts');
    first.lose('exited with code 1');
    expect(listChanges).toEqual([]);
    expect(supervisor.get('a')?.status).toBe('ready');
    opener.latest.announce('prompts');
    expect(listChanges).toEqual([['a', 'prompts']]);
  });

  it('a log level chosen by the person reaches the ready connection; one from the config live, without a restart', async () => {
    const a = config();
    await supervisor.sync({ a });
    await supervisor.setLogLevel('a', 'debug');
    await supervisor.sync({ a: { ...a, logLevel: 'warning' } });
    await supervisor.sync({ a });
    expect(opener.latest.levels).toEqual(['debug', 'warning', 'server default']);
    expect(opener.starts).toHaveLength(1);
  });

  it('tool calls and requests go to the live connection', async () => {
    await supervisor.sync({ a: config() });
    expect(await supervisor.callTool('a', 'echo', {})).toEqual({ content: [{ type: 'text', text: 'called echo' }] });
    expect(
      await supervisor.request('a', { method: 'prompts/list', what: '', action: 'list prompts' }, (client, timeoutMs) =>
        Promise.resolve([client === opener.latest.client, timeoutMs]),
      ),
    ).toEqual([true, 60_000]);
    await supervisor.stop('a');
    await expect(supervisor.callTool('a', 'echo', {})).rejects.toMatchObject({ code: 'NOT_READY' });
  });
});

describe('requests to a server Berth does not have', () => {
  it('reject with NOT_FOUND instead of throwing where they are called', async () => {
    let called: Promise<unknown> | undefined;
    expect(() => (called = supervisor.callTool('nope', 'echo', {}))).not.toThrow();
    await expect(called).rejects.toMatchObject({ code: 'NOT_FOUND', message: "no server named 'nope'" });
    let requested: Promise<unknown> | undefined;
    expect(
      () =>
        (requested = supervisor.request('nope', { method: 'prompts/get', what: '', action: 'get prompt' }, () =>
          Promise.resolve(),
        )),
    ).not.toThrow();
    await expect(requested).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the states it reports', () => {
  it('a state listener that asks about the server finds it, from its first state on', async () => {
    const seen: (string | undefined)[] = [];
    const own: ServerSupervisor = new ServerSupervisor({
      logs,
      stateDir: dir.path,
      openConnection: opener.open,
      onState: (state) => seen.push(own.get(state.name)?.status),
    });
    await own.sync({ b: config({ enabled: false }) });
    await own.shutdown();
    expect(seen).toEqual(['stopped', 'stopped']); // added, then stopped by the shutdown
  });

  it('each status carries only its own fields: every state parses with the strict schema, secrets masked', async () => {
    vi.useFakeTimers();
    await supervisor.sync({ a: config({ enabled: false, env: { TOKEN: 'secret-value' }, secretEnv: ['TOKEN'] }) });
    opener.plans.push('hang');
    const started = supervisor.start('a');
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    opener.start(0).spawned(777);
    opener.start(0).succeed();
    await started;
    opener.latest.announce('tools', [{ name: 'echo', inputSchema: { type: 'object' } }]);
    opener.latest.lose('exited with code 3');
    await supervisor.stop('a');
    opener.plans.push(new ServerStartError('the handshake was refused', 'protocol'));
    await supervisor.start('a');
    opener.plans.push(new ServerStartError('sign in first', 'sign-in'));
    await supervisor.start('a');
    await supervisor.sync({
      a: config({ env: { TOKEN: 'secret-value' }, secretEnv: ['TOKEN'], restart: { ...RESTART, enabled: false } }),
    });
    opener.latest.lose('exited with code 4');

    expect(new Set(states.states.map((state) => state.status))).toEqual(
      new Set(['stopped', 'starting', 'ready', 'crashed', 'restarting', 'error']),
    );
    for (const state of states.states) {
      const parsed = ServerStateSchema.safeParse(state);
      expect(parsed.error?.issues ?? [], `${state.status}: ${JSON.stringify(state)}`).toEqual([]);
      expect(state.config.env.TOKEN).toBe(SECRET_MASK);
    }
    expect(states.states.find((state) => state.status === 'starting' && state.pid === 777)).toBeDefined();
    expect(states.states.find((state) => state.status === 'ready' && state.tools.length > 0)).toMatchObject({
      tools: [{ name: 'echo' }],
      readySince: expect.any(Number),
      transport: 'stdio',
    });
    expect(states.states.find((state) => state.status === 'restarting')).toMatchObject({
      reason: 'exited with code 3',
      nextRestartAt: expect.any(Number),
    });
    expect(
      states.states.filter((state) => state.status === 'error').map((state) => [state.reason, state.auth]),
    ).toEqual([
      ['the handshake was refused', undefined],
      ['sign in first', { state: 'needs-sign-in' }],
    ]);
    expect(supervisor.get('a')).toMatchObject({
      status: 'crashed',
      reason: expect.stringContaining('exited with code 4'),
    });
  });
});
