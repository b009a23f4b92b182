import { describe, expect, it } from 'vitest';
import { openModules, openingOrder } from './host-modules';
import type { HostModule, HostPhase } from './host-modules';

/** A module that writes what it does to `log`. */
function recorded(
  log: string[],
  name: string,
  phase: HostPhase,
  extra: Partial<Pick<HostModule<unknown>, 'open'>> = {},
): HostModule<unknown> {
  return {
    name,
    phase,
    open: async (context, scope) => {
      log.push(`open ${name}`);
      scope.onShutdown(() => {
        log.push(`close ${name}`);
      });
      await extra.open?.(context, scope);
    },
  };
}

describe('openModules', () => {
  it('opens phase by phase, and within a phase in the order listed', async () => {
    const log: string[] = [];
    await openModules(
      [
        recorded(log, 'bridge', 'ready'),
        recorded(log, 'chat', 'loaded'),
        recorded(log, 'consent', 'services'),
        recorded(log, 'logs', 'foundation'),
        recorded(log, 'tasks', 'services'),
        recorded(log, 'supervisor', 'servers'),
        recorded(log, 'sandbox', 'services'),
      ],
      {},
    );
    expect(log).toEqual([
      'open logs',
      'open consent',
      'open tasks',
      'open sandbox',
      'open supervisor',
      'open chat',
      'open bridge',
    ]);
  });

  it('keeps the listed order of a phase in openingOrder', () => {
    const modules = ['a', 'b', 'c'].map((name) => recorded([], name, 'features'));
    expect(openingOrder([...modules].reverse()).map((module) => module.name)).toEqual(['c', 'b', 'a']);
  });

  it('shuts down in reverse order of opening, each module its own work last registered first', async () => {
    const log: string[] = [];
    const opened = await openModules(
      [
        recorded(log, 'chat', 'loaded'),
        recorded(log, 'logs', 'foundation', {
          open: (_context, scope) => {
            scope.onShutdown(() => {
              log.push('flush logs');
            });
          },
        }),
        recorded(log, 'supervisor', 'servers'),
      ],
      {},
    );
    log.length = 0;
    await opened.shutdown();
    expect(log).toEqual(['close chat', 'close supervisor', 'flush logs', 'close logs']);
  });

  it('lets every module stop taking work before any module closes', async () => {
    const log: string[] = [];
    const stoppable = (name: string, phase: HostPhase): HostModule<unknown> => ({
      name,
      phase,
      open: (_context, scope) => {
        scope.onStopping(() => void log.push(`stop ${name}`));
        scope.onShutdown(() => void log.push(`close ${name}`));
      },
    });
    const opened = await openModules(
      [stoppable('consent', 'services'), stoppable('config', 'features'), stoppable('chat', 'loaded')],
      {},
    );
    await opened.shutdown();
    expect(log).toEqual(['stop chat', 'stop config', 'stop consent', 'close chat', 'close config', 'close consent']);
  });

  it('waits for each shutdown step before the next, and runs the whole shutdown once', async () => {
    const log: string[] = [];
    const slow: HostModule<unknown> = {
      name: 'slow',
      phase: 'servers',
      open: (_context, scope) =>
        scope.onShutdown(async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          log.push('slow closed');
        }),
    };
    const opened = await openModules([recorded(log, 'logs', 'foundation'), slow], {});
    await Promise.all([opened.shutdown(), opened.shutdown()]);
    expect(log).toEqual(['open logs', 'slow closed', 'close logs']);
  });

  it('names the module whose open throws, and closes the ones already opened (its own registrations too)', async () => {
    const log: string[] = [];
    const failing = recorded(log, 'roots', 'loaded', {
      open: () => {
        throw new Error('roots.json is not JSON');
      },
    });
    const outcome = openModules(
      [
        recorded(log, 'logs', 'foundation'),
        failing,
        recorded(log, 'chat', 'loaded'),
        recorded(log, 'servers', 'servers'),
      ],
      {},
    );
    await expect(outcome).rejects.toThrow("host module 'roots' failed to open: roots.json is not JSON");
    await expect(outcome).rejects.toMatchObject({ cause: new Error('roots.json is not JSON') });
    expect(log).toEqual(['open logs', 'open servers', 'open roots', 'close roots', 'close servers', 'close logs']);
  });

  it('goes on shutting down past a failing step, then names the module that failed', async () => {
    const log: string[] = [];
    const broken: HostModule<unknown> = {
      name: 'sandbox',
      phase: 'services',
      open: (_context, scope) =>
        scope.onShutdown(() => {
          throw new Error('proxy already gone');
        }),
    };
    const opened = await openModules(
      [recorded(log, 'logs', 'foundation'), broken, recorded(log, 'chat', 'loaded')],
      {},
    );
    await expect(opened.shutdown()).rejects.toThrow("host module 'sandbox' failed to shut down: proxy already gone");
    expect(log).toEqual(['open logs', 'open chat', 'close chat', 'close logs']);
  });

  it('refuses two modules of one name', async () => {
    await expect(openModules([recorded([], 'chat', 'loaded'), recorded([], 'chat', 'ready')], {})).rejects.toThrow(
      "two host modules are named 'chat'",
    );
  });

  it('hands every module the same context, with what earlier phases put in it', async () => {
    const context: { logs?: string; seen?: string } = {};
    await openModules<typeof context>(
      [
        { name: 'reader', phase: 'features', open: (ctx) => void (ctx.seen = ctx.logs) },
        { name: 'logs', phase: 'foundation', open: (ctx) => void (ctx.logs = 'log hub') },
      ],
      context,
    );
    expect(context.seen).toBe('log hub');
  });
});
