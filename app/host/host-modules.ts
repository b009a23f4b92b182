import { errorMessage } from '../../shared/error-message';

/**
 * The order in which the host opens: every module of a phase opens before any
 * module of the next one, so a module may use what earlier phases provided
 * without a forward reference. Within a phase, modules open in the order
 * modules.ts lists them.
 */
export const HOST_PHASES = [
  /** Logs, redaction, private files, settings, secrets: what everything else writes to or reads. */
  'foundation',
  /** Services that keep something per server and are told of each server's changes (consent, tasks, sandbox…). */
  'services',
  /** The supervisor, once every wrapper and preparer of a connection is registered. */
  'servers',
  /** Features over the running servers (prompts, resources, apps, skills, the config sync). */
  'features',
  /** What reads the stored state once the config is loaded (roots, chat). */
  'loaded',
  /** The bridge over everything opened, then the configured servers start. */
  'ready',
] as const;

export type HostPhase = (typeof HOST_PHASES)[number];

/** Work a module leaves for shutdown. */
export type ShutdownWork = () => void | Promise<void>;

/**
 * What a module leaves for shutdown. Shutdown has two stages, each in reverse
 * order of opening: first every module stops taking new work (watchers, timers,
 * questions waiting for the person), then every module closes, so nothing that
 * closes is still fed by a module opened before it.
 */
export interface ModuleScope {
  /** The module opening: what it registers is named after it. */
  readonly module: string;
  /** First stage: stop what would start new work. */
  onStopping(work: ShutdownWork): void;
  /** Second stage: close, flush, wait for what is running. */
  onShutdown(work: ShutdownWork): void;
}

/** One capability of the host: what it registers happens in `open`, in its phase. */
export interface HostModule<Context> {
  readonly name: string;
  readonly phase: HostPhase;
  open(context: Context, scope: ModuleScope): void | Promise<void>;
}

/** The modules that opened, closed together. */
export interface OpenedModules {
  /** Runs every module's stopping work, then every module's shutdown work, each last opened first; a failure does not stop the rest, and is thrown (named) at the end. */
  shutdown(): Promise<void>;
}

interface Opened {
  name: string;
  stopping: ShutdownWork[];
  work: ShutdownWork[];
}

/** The modules in the order they open: by phase, then as listed. */
export function openingOrder<Context>(modules: readonly HostModule<Context>[]): HostModule<Context>[] {
  return modules
    .map((module, index) => ({ module, index, phase: HOST_PHASES.indexOf(module.phase) }))
    .sort((a, b) => a.phase - b.phase || a.index - b.index)
    .map(({ module }) => module);
}

/**
 * Opens `modules` in phase order over `context`. A module whose open throws
 * is named in the error, and every module opened before it (its own shutdown
 * work registered so far included) is shut down first.
 */
export async function openModules<Context>(
  modules: readonly HostModule<Context>[],
  context: Context,
): Promise<OpenedModules> {
  const names = new Set<string>();
  for (const module of modules) {
    if (names.has(module.name)) throw new Error(`two host modules are named '${module.name}'`);
    names.add(module.name);
  }
  const opened: Opened[] = [];
  for (const module of openingOrder(modules)) {
    const entry: Opened = { name: module.name, stopping: [], work: [] };
    opened.push(entry);
    try {
      await module.open(context, {
        module: module.name,
        onStopping: (work) => entry.stopping.push(work),
        onShutdown: (work) => entry.work.push(work),
      });
    } catch (error) {
      // What opened may hold files and timers: close it before the caller hears of the failure.
      await shutDown(opened).catch(() => undefined);
      throw new Error(`host module '${module.name}' failed to open: ${errorMessage(error)}`, { cause: error });
    }
  }
  let shuttingDown: Promise<void> | undefined;
  return {
    shutdown: () => (shuttingDown ??= shutDown(opened)),
  };
}

async function shutDown(opened: readonly Opened[]): Promise<void> {
  const failures: Error[] = [];
  for (const stage of ['stopping', 'work'] as const) {
    for (const module of [...opened].reverse()) {
      for (const step of [...module[stage]].reverse()) {
        try {
          await step();
        } catch (error) {
          failures.push(
            new Error(`host module '${module.name}' failed to shut down: ${errorMessage(error)}`, { cause: error }),
          );
        }
      }
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, failures.map((failure) => failure.message).join('; '));
}
