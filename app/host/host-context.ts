import type { LogEntry } from '../../shared/domain/log';
import type { HandlerRegistry } from '../bridge/handler-registry';
import type { HostToolProvider } from '../chat/host-tools/host-tool';
import type { BerthPaths } from '../config/paths';
import type { EventHub } from '../events/event-hub';
import type { HostOptions } from './host-types';
import type { OpenConnection } from '../servers/connection-options';
import type { PrepareLaunch } from '../servers/server-launch';
import type { ServerLifecycle } from '../servers/server-lifecycle';
import type { HostServices } from './host-services';

/** A wrapper of what it is given, applied in `order`: the lowest order is innermost. */
export interface OrderedWrapper<T> {
  order: number;
  wrap(inner: T): T;
}

/**
 * What every host module is given: the facts of this run, the host's event
 * hub and server lifecycle, the services earlier modules provided, and the
 * lists a module adds to for others to use (a connection wrapper, a launch
 * preparer, a host tool, a watcher of log batches).
 */
export interface HostContext {
  readonly options: HostOptions;
  readonly paths: BerthPaths;
  /** Berth's own environment. */
  readonly hostEnv: NodeJS.ProcessEnv;
  /** What a spawned server inherits: the host's environment less what is the host's alone. */
  readonly serverEnv: Record<string, string | undefined>;
  readonly events: EventHub;
  /** The services that keep something per server join here; each event reaches them in the order they join. */
  readonly lifecycle: ServerLifecycle;
  readonly services: ServiceSlots;
  /** How the supervisor opens a connection: each wrapper over ServerConnection.open, by order. */
  readonly connectionWrappers: OrderedWrapper<OpenConnection>[];
  /** How the supervisor prepares a launch: each wrapper over the login-shell and secrets preparer, by order. */
  readonly launchWrappers: OrderedWrapper<PrepareLaunch>[];
  /** The contract's methods, each registered by the module that brings it; the bridge module serves them. */
  readonly bridgeHandlers: HandlerRegistry;
  /** Host tools of features beyond the conversation store (app/chat/host-tools/host-tool.ts); read when a turn asks. */
  readonly hostTools: (() => HostToolProvider)[];
  /** Told of each log batch the renderer is sent. */
  readonly logWatchers: ((entries: LogEntry[]) => void)[];
  /** Failures with no caller to answer: stderr and the host-wide log, never silence. */
  reportBug(what: string, error: unknown): void;
  /** A warning in the host-wide log. */
  warn(text: string): void;
}

/** Applies `wrappers` over `base`, lowest order innermost; equal orders keep the order they were added in. */
export function applyWrappers<T>(base: T, wrappers: readonly OrderedWrapper<T>[]): T {
  return [...wrappers].sort((a, b) => a.order - b.order).reduce((inner, wrapper) => wrapper.wrap(inner), base);
}

/**
 * The services modules provide, each once, by name. `get` of a service whose
 * module has not opened yet throws with its name: a wrong phase fails at once
 * and says where, instead of reading undefined later.
 */
export class ServiceSlots {
  private readonly values = new Map<keyof HostServices, unknown>();

  provide<K extends keyof HostServices>(name: K, value: HostServices[K]): HostServices[K] {
    if (this.values.has(name)) throw new Error(`the host service '${name}' is provided twice`);
    this.values.set(name, value);
    return value;
  }

  get<K extends keyof HostServices>(name: K): HostServices[K] {
    if (!this.values.has(name)) throw new Error(`the host service '${name}' is used before its module opened`);
    return this.values.get(name) as HostServices[K];
  }

  /** The service if its module has opened (for reporting, which works before any module has). */
  find<K extends keyof HostServices>(name: K): HostServices[K] | undefined {
    return this.values.get(name) as HostServices[K] | undefined;
  }
}
