import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerSupervisor } from './supervisor';
import { FakeOpener } from './supervisor-fakes';
import { LogCollector, StateRecorder, serverConfig, tempDir } from './test-support';

/** Services reach a server's client only through state-checked operations: never by name, whatever its state. */

let dir: { path: string; cleanup: () => Promise<void> };
let opener: FakeOpener;
let supervisor: ServerSupervisor;

beforeEach(async () => {
  dir = await tempDir('berth-supervisor-access-');
  opener = new FakeOpener();
  supervisor = new ServerSupervisor({
    logs: new LogCollector(),
    stateDir: dir.path,
    onState: new StateRecorder().onState,
    openConnection: opener.open,
  });
});

afterEach(async () => {
  await supervisor.shutdown();
  await dir.cleanup();
});

describe('reaching a server without its raw client', () => {
  it('offers no client by name', () => {
    expect((supervisor as unknown as Record<string, unknown>).client).toBeUndefined();
  });

  it('isCurrentClient: only the live connection’s client, not one replaced by a restart or let go by a stop', async () => {
    await supervisor.sync({ a: serverConfig({ command: 'fake-server' }) });
    const first = opener.latest.client;
    expect(supervisor.isCurrentClient('a', first)).toBe(true);
    expect(supervisor.isCurrentClient('b', first)).toBe(false);
    await supervisor.restart('a');
    const second = opener.latest.client;
    expect(supervisor.isCurrentClient('a', first)).toBe(false);
    expect(supervisor.isCurrentClient('a', second)).toBe(true);
    await supervisor.stop('a');
    expect(supervisor.isCurrentClient('a', second)).toBe(false);
  });

  it('notifyRootsChanged: sent to a ready server only; a starting, stopped or unknown one is told nothing', async () => {
    await supervisor.sync({ a: serverConfig({ command: 'fake-server', enabled: false }) });
    expect(supervisor.notifyRootsChanged('a')).toBeUndefined();
    expect(supervisor.notifyRootsChanged('nobody')).toBeUndefined();

    opener.plans.push('hang');
    const started = supervisor.start('a');
    await vi.waitFor(() => expect(opener.starts).toHaveLength(1));
    const client = opener.latest.client;
    const sent = vi.spyOn(client, 'sendRootsListChanged').mockResolvedValue(undefined);
    expect(supervisor.get('a')?.status).toBe('starting');
    expect(supervisor.notifyRootsChanged('a')).toBeUndefined();
    expect(sent).not.toHaveBeenCalled();

    opener.start(0).succeed();
    await started;
    await supervisor.notifyRootsChanged('a');
    expect(sent).toHaveBeenCalledOnce();

    await supervisor.stop('a');
    expect(supervisor.notifyRootsChanged('a')).toBeUndefined();
    expect(sent).toHaveBeenCalledOnce();
  });
});
