import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { LogSink } from '../../app/logs/log-sink';
import { ServerSupervisor, type SupervisorOptions } from '../../app/servers/supervisor';
import { LogCollector, REPO_ROOT, StateRecorder, tempDir } from '../../app/servers/test-support';
import { ServerStateSchema } from '../../shared/domain/server';
import { HostError } from '../../shared/result';

/** The stdio entry of an npm-installed server, from its package.json `bin`. */
export function binOf(pkg: string): string {
  const dir = join(REPO_ROOT, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  if (bin === undefined) throw new Error(`${pkg} has no bin`);
  return join(dir, bin);
}

/** The HostError `promise` rejects with; anything else (success, another error) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HostError)) throw new Error(`expected a HostError, got ${String(error)}`);
  return error;
}

/** Per test, a supervisor's world: its state dir, where its logs and states go, and the supervisor. */
export interface SupervisorPerTest<Logs extends LogSink> {
  /** This test's temp dir (the supervisor's state dir), removed after it. */
  readonly dir: string;
  readonly logs: Logs;
  /** Every state the supervisor reported (unless `options.onState` sends them elsewhere). */
  readonly states: StateRecorder;
  readonly supervisor: ServerSupervisor;
}

/** A LogSink the harness closes after the test, when it can be closed. */
type DisposableLogs = LogSink & { dispose?: () => Promise<void> };

/**
 * Registers the beforeEach/afterEach of a supervisor test in the current
 * suite: before each test a temp dir (`prefix`…), fresh logs (from `makeLogs`)
 * and states, and a ServerSupervisor with `options`; after it, the supervisor
 * shut down, the logs disposed and the dir removed.
 */
export function supervisorPerTest<Logs extends DisposableLogs>(
  makeLogs: () => Logs,
  options: Partial<Omit<SupervisorOptions, 'logs' | 'stateDir'>> = {},
  prefix?: string,
): SupervisorPerTest<Logs> {
  let current: (SupervisorPerTest<Logs> & { cleanup: () => Promise<void> }) | undefined;
  beforeEach(async () => {
    const dir = await tempDir(prefix);
    const logs = makeLogs();
    const states = new StateRecorder();
    const supervisor = new ServerSupervisor({ onState: states.onState, ...options, logs, stateDir: dir.path });
    current = { dir: dir.path, logs, states, supervisor, cleanup: dir.cleanup };
  });
  afterEach(async () => {
    const ending = current;
    current = undefined;
    if (ending === undefined) return;
    await ending.supervisor.shutdown();
    await ending.logs.dispose?.();
    await ending.cleanup();
    // Every state real servers went through is one the renderer accepts: the strict variant of its status.
    for (const state of ending.states.states) {
      const parsed = ServerStateSchema.safeParse(state);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
        throw new Error(`server '${state.name}' reported a '${state.status}' state the schema refuses: ${problems}`);
      }
    }
  });
  const running = (): SupervisorPerTest<Logs> => {
    if (current === undefined) throw new Error('supervisorPerTest: the supervisor runs only while a test runs');
    return current;
  };
  return {
    get dir() {
      return running().dir;
    },
    get logs() {
      return running().logs;
    },
    get states() {
      return running().states;
    },
    get supervisor() {
      return running().supervisor;
    },
  };
}

/** The usual logs of a supervisor test: every entry kept in memory. */
export const collectLogs = (): LogCollector => new LogCollector();
