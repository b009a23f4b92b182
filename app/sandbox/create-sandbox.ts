import type { BerthPaths } from '../config/paths';
import type { EventHub } from '../events/event-hub';
import type { LogSink } from '../logs/log-sink';
import type { RootsConsent } from '../roots/roots-consent';
import type { RootsStore } from '../roots/roots-store';
import { SandboxService } from './sandbox-service';
import type { SandboxServers } from './sandbox-service';
import { SandboxSettingsStore } from './sandbox-settings-store';

/** What the host gives the sandbox; `servers` and `roots` are read late (they are built after it). */
export interface OpenSandboxOptions {
  paths: Pick<BerthPaths, 'configDir' | 'secretsFile' | 'bundlesDir' | 'stateDir'>;
  servers: () => SandboxServers;
  roots: () => { store: RootsStore; consent: RootsConsent } | undefined;
  events: Pick<EventHub, 'emit'>;
  logs: LogSink;
  warn(text: string): void;
  reportError(what: string, error: unknown): void;
  /** Loopback ports Berth listens on (browser mode): never open to a sandboxed server. */
  ownPorts?: (() => readonly number[]) | undefined;
}

/** The folders of the roots `server` was given: exposed to it, allowed by the person, present. */
export function givenRootFolders(roots: { store: RootsStore; consent: RootsConsent }, server: string): string[] {
  const { allowed } = roots.consent.answersFor(server);
  return roots.store
    .rootsFor(server)
    .filter((root) => !root.missing && allowed.includes(root.id))
    .map((root) => root.path)
    .sort();
}

/** The host's sandbox: its settings file and the service (call `watchRoots` once the roots are open). */
export async function openSandbox(options: OpenSandboxOptions): Promise<SandboxService> {
  const settings = await SandboxSettingsStore.open({
    configDir: options.paths.configDir,
    warn: (text) => options.warn(`sandbox: ${text}`),
  });
  const service = new SandboxService({
    paths: options.paths,
    settings,
    servers: {
      list: () => options.servers().list(),
      get: (name) => options.servers().get(name),
      restart: (name) => options.servers().restart(name),
    },
    rootsOf: (server) => {
      const roots = options.roots();
      return roots === undefined ? [] : givenRootFolders(roots, server);
    },
    events: options.events,
    logs: options.logs,
    reportError: options.reportError,
    ...(options.ownPorts === undefined ? {} : { ownPorts: options.ownPorts }),
  });
  service.warmUp();
  return service;
}
