import { isDeepStrictEqual } from 'node:util';
import type { Handlers } from '../../shared/contract';
import type { serverMethods } from '../../shared/contract/servers';
import { serverIdentityKey } from '../../shared/domain/consent';
import type { ConfigStatus } from '../../shared/domain/config';
import type { LogLevel, ServerConfig, ServerState } from '../../shared/domain/server';
import { HostError } from '../../shared/result';
import { serverError } from '../../shared/domain/server-errors';
import { serverIdentity } from '../consent/approval-fingerprint';
import type { ServerEdit } from '../consent/consent-broker';
import type { OAuthSessions } from '../oauth/oauth-sessions';
import type { ServerSecrets } from '../secrets/server-secrets';
import type { SettingsStore } from '../settings/settings-store';
import type { EventHub } from '../events/event-hub';
import type { ServerSync } from './server-sync';

/** The server methods of the contract. */
export type ServerHandlers = Pick<Handlers, keyof typeof serverMethods>;

/** The config store as the handlers use it (ConfigStore fits). */
export interface HandlerConfigStore {
  status(): ConfigStatus;
  rawServer(name: string): ServerConfig | undefined;
  addServer(name: string, config: ServerConfig): Promise<void>;
  setServer(name: string, config: ServerConfig, options?: { previousName?: string }): Promise<void>;
  removeServer(name: string): Promise<void>;
  setServerLogLevel(name: string, level: LogLevel | undefined): Promise<void>;
  saveText(text: string): Promise<ConfigStatus>;
}

/** The supervisor as the handlers use it (ServerSupervisor fits). */
export interface HandlerSupervisor {
  list(): ServerState[];
  get(name: string): ServerState | undefined;
  start(name: string): Promise<ServerState>;
  stop(name: string): Promise<ServerState>;
  restart(name: string): Promise<ServerState>;
  setLogLevel(name: string, level: LogLevel): Promise<ServerState>;
  /** Its OAuth tokens changed: read the sign-in state again. */
  signInChanged(name: string): Promise<ServerState>;
}

export interface ServerHandlerDeps {
  config: HandlerConfigStore;
  supervisor: HandlerSupervisor;
  events: Pick<EventHub, 'emit'>;
  sync: Pick<ServerSync, 'apply' | 'lastGoodConfig'>;
  /** Secret env values: kept in the secret store, referenced from config.json. */
  secrets: Pick<ServerSecrets, 'save' | 'forget'>;
  /** What the person approved for a server (tool permissions, folder access) follows a rename, and a new command or address only if they said so. */
  approvals: { serverEdited(edit: ServerEdit): Promise<void> };
  /** A server's OAuth records follow a rename and go with its removal. */
  oauth: Pick<OAuthSessions, 'renameServer' | 'forgetServer'>;
  /** A server's own settings (sampling limits, tasks) follow a rename; its removal forgets them (the settings module, on serverRemoved). */
  settings: Pick<SettingsStore, 'renameServer'>;
  /** Background work failed with nobody waiting for it. */
  reportError(what: string, error: unknown): void;
}

/** Add, edit, remove, start and stop servers: config.json first, then the supervisor follows it. */
export function createServerHandlers(deps: ServerHandlerDeps): ServerHandlers {
  const { config, supervisor, events, sync, secrets } = deps;

  const announceConfig = (): void => events.emit('config.changed', config.status());

  const stateOf = (name: string): ServerState => {
    const state = supervisor.get(name);
    if (state === undefined) throw new Error(`The supervisor has no state for "${name}" right after syncing it`);
    return state;
  };

  const requireServer = (name: string): void => {
    if (supervisor.get(name) === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'name');
  };

  /** The stored (unmasked) config, or the one it still runs with if its entry in the file is broken. */
  const storedConfig = (name: string): ServerConfig => {
    const stored = config.rawServer(name) ?? sync.lastGoodConfig(name);
    if (stored === undefined)
      throw HostError.coded('NOT_FOUND', serverError('server-errors.not-found', { name }), 'name');
    return stored;
  };

  const nameTaken = (name: string): boolean =>
    config.rawServer(name) !== undefined || supervisor.get(name) !== undefined;

  return {
    'servers.list': async () => supervisor.list(),

    'servers.add': async ({ name, config: serverConfig }) => {
      if (nameTaken(name)) throw HostError.coded('CONFLICT', serverError('server-errors.name-taken', { name }), 'name');
      await secrets.save({ name, incoming: serverConfig, write: (withRefs) => config.addServer(name, withRefs) });
      announceConfig();
      await sync.apply();
      return stateOf(name);
    },

    'servers.update': async ({ name, newName, config: serverConfig, approvals }) => {
      const stored = storedConfig(name);
      const target = newName ?? name;
      const renaming = target !== name;
      if (renaming && nameTaken(target))
        throw HostError.coded('CONFLICT', serverError('server-errors.name-taken', { name: target }), 'newName');
      const saved = await secrets.save({
        name: target,
        incoming: serverConfig,
        stored,
        write: (withRefs) => config.setServer(target, withRefs, renaming ? { previousName: name } : {}),
      });
      announceConfig();
      // Before the sync restarts it (or removes the old name, which revokes what was approved for it).
      if (renaming || serverIdentityKey(stored) !== serverIdentityKey(saved.config)) {
        await deps.approvals.serverEdited({
          from: name,
          to: target,
          fromIdentity: serverIdentity(stored),
          toIdentity: serverIdentity(saved.config),
          keep: approvals === 'keep',
        });
      }
      // Before the sync starts it under its new name, so the start finds its tokens.
      if (renaming) await deps.oauth.renameServer(name, target);
      // Before the sync forgets the old name, which forgets its settings.
      if (renaming) await deps.settings.renameServer(name, target);
      await sync.apply(renaming ? { forget: [name] } : {});
      // Only a secret's value changed: config.json reads the same, so the sync restarted nothing.
      // Restarted in the background like any sync start: a start may take its whole timeout.
      if (
        saved.secretsChanged &&
        !renaming &&
        isDeepStrictEqual(saved.config, stored) &&
        stateOf(target).status !== 'stopped'
      ) {
        supervisor
          .restart(target)
          .catch((error: unknown) => deps.reportError(`restarting ${target} with its new secret value failed`, error));
        await new Promise<void>((resolveTick) => setImmediate(resolveTick));
      }
      return stateOf(target);
    },

    'servers.remove': async ({ name }) => {
      const stored = config.rawServer(name) ?? sync.lastGoodConfig(name);
      try {
        await config.removeServer(name);
      } catch (error) {
        // Still running from the last good config although its entry is gone: removing it is what was asked.
        const onlyRunning =
          error instanceof HostError && error.code === 'NOT_FOUND' && supervisor.get(name) !== undefined;
        if (!onlyRunning) throw error;
      }
      announceConfig();
      await sync.apply({ forget: [name] });
      if (stored !== undefined) await secrets.forget(stored);
      await deps.oauth.forgetServer(name);
      return { removed: name };
    },

    'servers.start': async ({ name }) => {
      requireServer(name);
      return supervisor.start(name);
    },

    'servers.stop': async ({ name }) => {
      requireServer(name);
      return supervisor.stop(name);
    },

    'servers.restart': async ({ name }) => {
      requireServer(name);
      return supervisor.restart(name);
    },

    'servers.setEnabled': async ({ name, enabled }) => {
      const stored = storedConfig(name);
      if (stored.enabled !== enabled) {
        await config.setServer(name, { ...stored, enabled });
        announceConfig();
      }
      await sync.apply();
      // A disabled server is reported once its process tree is gone.
      if (!enabled) return supervisor.stop(name);
      // Enabling is an explicit request to run it, whatever it was doing: a
      // stopped, failed or crashed server gets a fresh start, reported as it starts.
      const state = stateOf(name);
      if (state.status === 'stopped' || state.status === 'error' || state.status === 'crashed') {
        supervisor.start(name).catch((error: unknown) => deps.reportError(`starting ${name} failed`, error));
        await new Promise<void>((resolveTick) => setImmediate(resolveTick));
        return stateOf(name);
      }
      return state;
    },

    'servers.setLogLevel': async ({ name, level }) => {
      requireServer(name);
      if (level === null) {
        // Back to the server's own default: the sync sees only the level change and applies it live.
        await config.setServerLogLevel(name, undefined);
        announceConfig();
        await sync.apply();
        return stateOf(name);
      }
      // Stored first, so the choice survives restarts even if the server refuses it now.
      await config.setServerLogLevel(name, level);
      announceConfig();
      try {
        // Live, without a restart; a server that is not ready gets it on its next start.
        return await supervisor.setLogLevel(name, level);
      } finally {
        // The supervisor already runs with the stored level, so this sync restarts nothing.
        await sync.apply();
      }
    },
  };
}
